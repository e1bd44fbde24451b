// The Browser guide's "why is a decision under review" seeks the open review signals.
CREATE INDEX review_signal_by_status IF NOT EXISTS FOR (s:ReviewSignal) ON (s.tenant, s.status)
