// Remember which decision a record_decision with an idempotency key created.
CREATE (:IdempotencyRecord {
  tenant: $tenant, scope: $scope, key: $key, decision_id: $decision_id,
  fingerprint: $fingerprint, revision: $revision, created_at: datetime($now)
})
