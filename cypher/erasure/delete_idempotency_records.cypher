// Erasure: the idempotency records of erased entities go (a retry then writes anew).
MATCH (i:IdempotencyRecord)
WHERE i.tenant = $tenant AND coalesce(i.entity_id, i.fact_id, i.decision_id) IN $ids
DELETE i
RETURN count(*) AS deleted
