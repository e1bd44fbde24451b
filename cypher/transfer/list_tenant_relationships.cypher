// graphmem export: the relationships leaving the tenant's nodes of one label (each node once,
// as list_tenant_nodes), both ends in the tenant.
MATCH (a:$($label) {tenant: $tenant})-[r]->(b {tenant: $tenant})
WHERE all(other IN labels(a) WHERE other >= $label)
  AND ($label <> 'Event' OR a.revision <= $revision)
RETURN elementId(a) AS from_ref, elementId(b) AS to_ref, type(r) AS type,
       properties(r) AS properties
