// timeline_report: a project's raw-archive turns aggregated for the report, read once by a
// range seek on (tenant, project, ts), newest first, at most $max_rows of them. One row per
// (session, UTC year, month): turns, estimated tokens (ceil(characters / 4) of the content),
// quarantined turns, first/last instants. A session's first row gives the month it started.
MATCH (t:Turn)
USING INDEX t:Turn(tenant, project, ts)
WHERE t.tenant = $tenant AND t.project = $project AND t.ts IS NOT NULL
WITH t ORDER BY t.tenant DESC, t.project DESC, t.ts DESC LIMIT $max_rows
WITH t.session_id AS session_id, datetime({datetime: t.ts, timezone: '+00:00'}) AS at,
     (size(t.content) + 3) / 4 AS tokens, t.quarantined AS quarantined
WITH session_id, at.year AS year, at.month AS month, count(*) AS turns, sum(tokens) AS tokens,
     count(CASE WHEN quarantined THEN 1 END) AS quarantined, min(at) AS first, max(at) AS last
RETURN session_id, year, month, turns, tokens, quarantined, toString(first) AS first,
       toString(last) AS last
