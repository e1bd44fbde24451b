// One record per (tenant, scope, key): a retry finds the write it repeats.
CREATE CONSTRAINT idempotency_record_unique IF NOT EXISTS
FOR (i:IdempotencyRecord) REQUIRE (i.tenant, i.scope, i.key) IS UNIQUE
