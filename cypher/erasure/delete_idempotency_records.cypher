// Erasure: the idempotency records of erased entities go (a retry then writes anew); records
// written before the one write path name their entity fact_id or decision_id.
CALL () {
  MATCH (i:IdempotencyRecord) WHERE i.tenant = $tenant AND i.entity_id IN $ids RETURN i
  UNION MATCH (i:IdempotencyRecord) WHERE i.tenant = $tenant AND i.fact_id IN $ids RETURN i
  UNION MATCH (i:IdempotencyRecord) WHERE i.tenant = $tenant AND i.decision_id IN $ids
  RETURN i
}
DELETE i
RETURN count(*) AS deleted
