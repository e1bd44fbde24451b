// bench.tenants: how many memories hold a vector in the whole database, every tenant's: what
// the shared vector index memory_embedding holds (the configuration line and each tenant's
// share of the index). Deliberately not scoped to $tenant.
MATCH (m:Memory)
WHERE m.embedding IS NOT NULL
RETURN count(m) AS memories
