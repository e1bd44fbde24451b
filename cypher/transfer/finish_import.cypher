// graphmem import, last step: the imported nodes lose their import marks, in batches.
MATCH (n:ImportPending) USING INDEX n:ImportPending(tenant, import_ref)
WHERE n.tenant = $tenant AND n.import_ref IS NOT NULL
CALL (n) { REMOVE n:ImportPending REMOVE n.import_ref } IN TRANSACTIONS OF 10000 ROWS
