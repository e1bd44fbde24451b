// search_raw's session_ref filter finds the caller's sessions of one reference by seek.
CREATE INDEX session_by_ref IF NOT EXISTS FOR (s:Session) ON (s.tenant, s.session_ref)
