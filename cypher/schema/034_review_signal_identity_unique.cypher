// A signal's identity: the decision and its sorted set of breached rule ids (coverage).
// MERGE on it keeps one signal per identity under concurrent evaluations.
CREATE CONSTRAINT review_signal_identity_unique IF NOT EXISTS
FOR (s:ReviewSignal) REQUIRE (s.tenant, s.decision_id, s.coverage) IS UNIQUE
