// Bench setup only: the tenant's chain head at the last bulk-loaded event.
MERGE (h:History {tenant: $tenant})
SET h.revision = $revision, h.last_hash = $hash, h.created_at = datetime()
RETURN h.revision AS revision
