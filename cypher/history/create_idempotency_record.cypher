// Remember what a keyed write produced, so a retry with the same key returns it.
CREATE (:IdempotencyRecord {
  tenant: $tenant, scope: $scope, key: $key, fingerprint: $fingerprint,
  entity_id: $entity_id, revision: $revision, details_json: $details_json,
  created_at: datetime($now)
})
