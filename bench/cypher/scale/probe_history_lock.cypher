// bench.scale: take the tenant's history lock as every write does (the SET of
// history/lock_head) and return at once; the probe times it and rolls back.
MATCH (h:History {tenant: $tenant})
SET h.lock_token = $lock_token
RETURN h.revision AS revision
