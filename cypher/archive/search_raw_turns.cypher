// search_raw: turns ranked by the Lucene full-text index (BM25) on the tenant-prefixed tokens
// of Turn.lexical. The index is shared by all tenants: the query holds only the caller's
// tokens, and every hit is filtered on the tenant before anything is counted, ordered or
// paged. One page of $limit + 1 rows (the extra one says has_more).
CALL db.index.fulltext.queryNodes('turn_lexical', $lucene) YIELD node, score
WHERE node.tenant = $tenant
  AND ($project IS NULL OR node.project = $project)
  AND ($role IS NULL OR node.role = $role)
  AND ($session_id IS NULL OR node.session_id = $session_id)
  AND ($since IS NULL OR node.ts >= datetime($since))
  AND ($until IS NULL OR node.ts <= datetime($until))
  AND ($include_quarantined OR NOT node.quarantined)
WITH node, score, [(s:Session)-[:HAS_TURN]->(node) WHERE s.tenant = $tenant | s][0] AS s
WHERE s IS NOT NULL AND ($session_ref IS NULL OR s.session_ref = $session_ref)
ORDER BY score DESC, node.ts DESC, node.id
SKIP $offset LIMIT $limit + 1
RETURN node.id AS turn_id, s.id AS session_id, s.session_ref AS session_ref,
       s.project AS project, s.host AS host, s.source_root AS source_root, node.role AS role,
       toString(node.ts) AS ts, node.seq AS seq, node.content AS content, score,
       node.quarantined AS quarantined, node.quarantine_reasons AS quarantine_reasons
