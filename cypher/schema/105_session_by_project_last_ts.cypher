// context_bundle: one project's raw-archive sessions, newest last turn first, by index order.
CREATE INDEX session_by_project_last_ts IF NOT EXISTS
FOR (s:Session) ON (s.tenant, s.project, s.last_ts)
