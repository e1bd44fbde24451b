// Remove every node of one tenant (tests and `graphmem` tenant purge), in batches.
MATCH (n {tenant: $tenant})
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
