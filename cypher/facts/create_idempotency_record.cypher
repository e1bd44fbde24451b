// Remember what a write with an idempotency key produced, so a retry returns it.
CREATE (:IdempotencyRecord {
  tenant: $tenant, scope: $scope, key: $key, fact_id: $fact_id, fingerprint: $fingerprint,
  superseded_id: $superseded_id, revision: $revision, created_at: datetime($now)
})
