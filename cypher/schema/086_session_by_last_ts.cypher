// list_raw_sessions: the sessions of a tenant active in a time window, newest first.
CREATE INDEX session_by_last_ts IF NOT EXISTS FOR (s:Session) ON (s.tenant, s.last_ts)
