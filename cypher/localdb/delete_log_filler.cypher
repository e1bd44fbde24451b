// The tenant's LogFiller node, gone once its filler has moved the transaction log on (its own
// transaction: the one after the rotation that lets the next checkpoint prune).
MATCH (f:LogFiller {tenant: $tenant})
DELETE f
RETURN count(f) AS deleted
