// graphmem import, after a failure: what the import created (still marked ImportPending) goes,
// in batches; the tenant's own data is untouched.
MATCH (n:ImportPending {tenant: $tenant})
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
