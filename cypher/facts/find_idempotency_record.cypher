// An earlier write with this idempotency key, and the fact it produced (as stored now).
MATCH (i:IdempotencyRecord {tenant: $tenant, scope: $scope, key: $key})
OPTIONAL MATCH (f:Fact {tenant: $tenant, id: i.fact_id})
RETURN i.fingerprint AS fingerprint, i.superseded_id AS superseded_id,
       i.revision AS revision, f AS fact
