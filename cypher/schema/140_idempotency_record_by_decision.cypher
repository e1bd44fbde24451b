// Records written before the one write path name their entity decision_id (erasure drops them).
CREATE INDEX idempotency_record_by_decision IF NOT EXISTS
FOR (i:IdempotencyRecord) ON (i.tenant, i.decision_id)
