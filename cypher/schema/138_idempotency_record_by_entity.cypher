// An erasure drops the idempotency records of what it erases, found by their entity.
CREATE INDEX idempotency_record_by_entity IF NOT EXISTS
FOR (i:IdempotencyRecord) ON (i.tenant, i.entity_id)
