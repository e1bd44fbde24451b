// A decision's signals (syncing them after an evaluation) by index seek.
CREATE INDEX review_signal_by_decision IF NOT EXISTS
FOR (s:ReviewSignal) ON (s.tenant, s.decision_id)
