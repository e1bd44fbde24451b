// list_raw_sessions: sessions with turns in [$since, $until], newest last turn first, at most
// $latest + 1 (the extra one says has_more); a session whose turns all fall outside the window
// (it spans the window without a turn in it) takes no slot. Window counts come from in-window turns only;
// samples are the first $samples non-quarantined user turns in the window, cut to $sample_chars.
// The seek on (tenant, last_ts) is pinned: with statistics of a grown database the planner
// would otherwise scan the (tenant, project, last_ts) index when $project is null.
MATCH (s:Session)
USING INDEX SEEK s:Session(tenant, last_ts)
WHERE s.tenant = $tenant AND s.last_ts >= datetime($since)
  AND ($until IS NULL OR s.first_ts <= datetime($until))
  AND ($project IS NULL OR s.project = $project)
  AND EXISTS {
    MATCH (w:Turn)
    WHERE w.tenant = $tenant AND w.session_id = s.id AND w.ts >= datetime($since)
      AND ($until IS NULL OR w.ts <= datetime($until))
  }
WITH s ORDER BY s.last_ts DESC, s.id DESC LIMIT $latest + 1
CALL (s) {
  MATCH (t:Turn)
  WHERE t.tenant = $tenant AND t.session_id = s.id AND t.ts >= datetime($since)
    AND ($until IS NULL OR t.ts <= datetime($until))
  RETURN count(t) AS window_count,
         count(CASE WHEN t.role = 'user' THEN 1 END) AS user_count,
         count(CASE WHEN t.role = 'assistant' THEN 1 END) AS assistant_count,
         toString(min(t.ts)) AS window_first_ts, toString(max(t.ts)) AS window_last_ts
}
CALL (s) {
  MATCH (t:Turn)
  WHERE t.tenant = $tenant AND t.session_id = s.id AND t.ts >= datetime($since)
    AND ($until IS NULL OR t.ts <= datetime($until)) AND t.role = 'user'
    AND t.quarantined = false
  WITH t ORDER BY t.ts, t.seq LIMIT $samples
  RETURN collect(left(t.content, $sample_chars)) AS samples
}
RETURN s.id AS session_id, s.session_ref AS session_ref, s.project AS project, s.host AS host,
       s.source_root AS source_root, s.content_hash AS content_hash,
       toString(s.first_ts) AS first_ts, toString(s.last_ts) AS last_ts,
       s.message_count AS message_count, window_count, user_count, assistant_count,
       window_first_ts, window_last_ts, samples
