// The Browser guide's "what is quarantined" seeks the quarantined turns.
CREATE INDEX turn_by_quarantine IF NOT EXISTS FOR (t:Turn) ON (t.tenant, t.quarantined)
