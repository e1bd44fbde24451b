// A review signal by id within its tenant (ack_review).
CREATE CONSTRAINT review_signal_id_unique IF NOT EXISTS
FOR (s:ReviewSignal) REQUIRE (s.tenant, s.id) IS UNIQUE
