// A subject's run history (newest first) by index seek.
CREATE INDEX run_by_subject IF NOT EXISTS FOR (r:Run) ON (r.tenant, r.subject_id, r.at)
