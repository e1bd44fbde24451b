// graphmem import: one batch of nodes, marked ImportPending with their file reference until
// the relationships are linked (finish_import removes both). The rows already name the target
// tenant (a uniqueness constraint is checked at each SET).
UNWIND $nodes AS row
CREATE (n:$(row.labels + ['ImportPending']))
SET n = row.properties, n.tenant = $tenant, n.import_ref = row.ref
RETURN count(n) AS created
