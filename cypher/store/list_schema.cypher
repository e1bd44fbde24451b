// Indexes (including those backing constraints) and their state, for `graphmem doctor`.
// Schema is database-wide, so this is one of the few queries without a tenant.
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties
RETURN name, type, state, labelsOrTypes, properties
ORDER BY name
