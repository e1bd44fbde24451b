// An earlier record_decision with this idempotency key.
MATCH (i:IdempotencyRecord {tenant: $tenant, scope: $scope, key: $key})
RETURN i.fingerprint AS fingerprint, i.decision_id AS decision_id, i.revision AS revision
