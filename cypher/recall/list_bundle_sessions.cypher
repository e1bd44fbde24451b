// context_bundle, recent_sessions: the project's raw-archive sessions the graph knew at
// $known_until (created by then), newest last turn first, at most $limit, each with its first
// user turn archived by then (quarantined turns skipped), cut to $sample_chars.
MATCH (s:Session)
USING INDEX s:Session(tenant, project, last_ts)
WHERE s.tenant = $tenant AND s.project = $project AND s.last_ts IS NOT NULL
  AND s.created_at <= datetime($known_until)
WITH s ORDER BY s.last_ts DESC, s.id DESC LIMIT $limit
CALL (s) {
  MATCH (t:Turn)
  USING INDEX t:Turn(tenant, session_id, ts)
  WHERE t.tenant = $tenant AND t.session_id = s.id AND t.ts IS NOT NULL AND t.role = 'user'
    AND t.quarantined = false AND t.archived_at <= datetime($known_until)
  WITH t ORDER BY t.ts, t.seq LIMIT 1
  RETURN collect(left(t.content, $sample_chars)) AS samples
}
RETURN s.id AS id, s.session_ref AS session_ref, s.host AS host,
       toString(s.first_ts) AS first_ts, toString(s.last_ts) AS last_ts,
       s.message_count AS message_count, samples
