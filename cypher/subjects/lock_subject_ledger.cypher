// A subjects pass of the tenant starts here: the ledger node's lock is held to the commit, so
// passes (and merges) of one tenant resolve one after the other, in any process.
MERGE (l:SubjectLedger {tenant: $tenant})
SET l.at = datetime($now)
RETURN l.tenant AS tenant
