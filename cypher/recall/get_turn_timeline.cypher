// timeline (source raw): one anchor turn (in $project when given) and the turns of the SAME
// session said just before and just after it, by (ts, seq), each side nearest first and one
// more than asked (the extra one says more exist). Range seeks on (tenant, session_id, ts).
// Quarantined turns are included, flagged: literal recall, like search_raw.
MATCH (s:Session {tenant: $tenant})-[:HAS_TURN]->(a:Turn {tenant: $tenant, id: $anchor})
WHERE $project IS NULL OR a.project = $project
CALL (a) {
  MATCH (t:Turn)
  USING INDEX t:Turn(tenant, session_id, ts)
  WHERE t.tenant = $tenant AND t.session_id = a.session_id AND t.ts <= a.ts
    AND CASE WHEN t.ts = a.ts THEN t.seq < a.seq ELSE true END
  // ordered by the whole index key: the seek returns index order, PartialTop stops early
  WITH t ORDER BY t.tenant DESC, t.session_id DESC, t.ts DESC, t.seq DESC
       LIMIT $depth_before + 1
  RETURN collect(t {
    .id, .role, .seq, .quarantined, content: left(t.content, $preview_chars + 1),
    ts: toString(t.ts)
  }) AS before
}
CALL (a) {
  MATCH (t:Turn)
  USING INDEX t:Turn(tenant, session_id, ts)
  WHERE t.tenant = $tenant AND t.session_id = a.session_id AND t.ts >= a.ts
    AND CASE WHEN t.ts = a.ts THEN t.seq > a.seq ELSE true END
  WITH t ORDER BY t.tenant, t.session_id, t.ts, t.seq LIMIT $depth_after + 1
  RETURN collect(t {
    .id, .role, .seq, .quarantined, content: left(t.content, $preview_chars + 1),
    ts: toString(t.ts)
  }) AS after
}
RETURN a {
  .id, .project, .role, .seq, .quarantined, content: left(a.content, $preview_chars + 1),
  ts: toString(a.ts)
} AS anchor, s.id AS session_id, s.session_ref AS session_ref, before, after
