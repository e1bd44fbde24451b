// A session's turns in time order: NEXT threading, in-window counts and samples.
CREATE INDEX turn_by_session_ts IF NOT EXISTS FOR (t:Turn) ON (t.tenant, t.session_id, t.ts)
