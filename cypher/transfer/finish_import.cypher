// graphmem import, last step: the imported nodes lose their import marks, in batches.
MATCH (n:ImportPending {tenant: $tenant})
CALL (n) { REMOVE n:ImportPending REMOVE n.import_ref } IN TRANSACTIONS OF 10000 ROWS
