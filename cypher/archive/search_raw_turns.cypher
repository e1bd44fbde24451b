// search_raw: turns ranked by the Lucene full-text index (BM25) on the tenant-prefixed tokens
// of Turn.lexical. The index is shared by all tenants: the query holds only the caller's
// tokens, and every hit is filtered on the tenant before anything is counted, ordered or
// paged. Lucene gives its top $fetch (a top-k read); one row: `fetched` (= $fetch when Lucene
// had more to give) and the page of $limit + 1 rows (the extra one says has_more). Sessions
// are looked up for the page only; a session_ref narrows to its sessions' ids first.
CALL db.index.fulltext.queryNodes('turn_lexical', $lucene, {limit: $fetch}) YIELD node, score
WITH collect({node: node, score: score}) AS hits
WITH hits, CASE WHEN $session_ref IS NULL THEN null ELSE COLLECT {
  MATCH (s:Session) WHERE s.tenant = $tenant AND s.session_ref = $session_ref RETURN s.id
} END AS ref_sessions
CALL (ref_sessions, hits) {
  UNWIND hits AS hit
  WITH hit.node AS node, hit.score AS score
  WHERE node.tenant = $tenant
    AND ($project IS NULL OR node.project = $project)
    AND ($role IS NULL OR node.role = $role)
    AND ($session_id IS NULL OR node.session_id = $session_id)
    AND (ref_sessions IS NULL OR node.session_id IN ref_sessions)
    AND ($since IS NULL OR node.ts >= datetime($since))
    AND ($until IS NULL OR node.ts <= datetime($until))
    AND ($include_quarantined OR NOT node.quarantined)
  WITH node, score ORDER BY score DESC, node.ts DESC, node.id
  SKIP $offset LIMIT $limit + 1
  MATCH (s:Session {tenant: $tenant, id: node.session_id})
  WITH node, score, s ORDER BY score DESC, node.ts DESC, node.id
  RETURN collect({
    turn_id: node.id, session_id: s.id, session_ref: s.session_ref, project: s.project,
    host: s.host, source_root: s.source_root, role: node.role, ts: toString(node.ts),
    seq: node.seq, content: node.content, score: score, quarantined: node.quarantined,
    quarantine_reasons: node.quarantine_reasons
  }) AS page
}
RETURN size(hits) AS fetched, page
