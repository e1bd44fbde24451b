// Records written before the one write path name their entity fact_id (erasure drops them).
CREATE INDEX idempotency_record_by_fact IF NOT EXISTS
FOR (i:IdempotencyRecord) ON (i.tenant, i.fact_id)
