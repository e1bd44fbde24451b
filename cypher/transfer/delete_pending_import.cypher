// graphmem import, after a failure: what the import created (still marked ImportPending) goes,
// in batches; the tenant's own data is untouched.
MATCH (n:ImportPending) USING INDEX n:ImportPending(tenant, import_ref)
WHERE n.tenant = $tenant AND n.import_ref IS NOT NULL
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
