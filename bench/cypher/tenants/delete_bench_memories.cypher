// bench.tenants: delete one bench tenant's memories (all it holds: the bench creates nothing
// else), found by the tenant's index, in batches of their own transactions (an auto-commit
// statement: Store.bulk_write).
MATCH (m:Memory) USING INDEX m:Memory(tenant, id)
WHERE m.tenant = $tenant AND m.id IS NOT NULL
CALL (m) { DETACH DELETE m } IN TRANSACTIONS OF 5000 ROWS
