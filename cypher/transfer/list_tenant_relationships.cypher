// graphmem export: the relationships leaving the tenant's nodes of one label (each node once,
// as list_tenant_nodes), both ends in the tenant.
// Properties come as [name, value] pairs, and temporal values as Cypher's own text with
// their type ([name, text, type]): Cypher reads its own forms back exactly, and the driver's
// temporal objects are slow to build.
MATCH (a:$($label) {tenant: $tenant})-[r]->(b {tenant: $tenant})
WHERE all(other IN labels(a) WHERE other >= $label)
  AND ($label <> 'Event' OR a.revision <= $revision)
RETURN elementId(a) AS from_ref, elementId(b) AS to_ref, type(r) AS type,
       [name IN keys(r) | CASE
         WHEN valueType(r[name]) =~ '(LIST<)?(ZONED|LOCAL|DATE|DURATION).*'
         THEN [name, CASE WHEN r[name] :: LIST<ANY> THEN [x IN r[name] | toString(x)]
                          ELSE toString(r[name]) END, valueType(r[name])]
         ELSE [name, r[name]] END] AS properties
