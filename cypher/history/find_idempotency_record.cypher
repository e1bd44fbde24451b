// An earlier keyed write of this scope and key: what a retry must repeat (the fingerprint)
// and what it produced. Records made before the one write path name their entity
// fact_id or decision_id.
MATCH (i:IdempotencyRecord {tenant: $tenant, scope: $scope, key: $key})
RETURN i.fingerprint AS fingerprint,
       coalesce(i.entity_id, i.fact_id, i.decision_id) AS entity_id,
       i.revision AS revision, i.details_json AS details_json,
       i.superseded_id AS superseded_id
