// graphmem export: the tenant's nodes of one label, each once (under its first label in
// alphabetical order), with the source's element id as the file's reference. Events are
// listed by list_tenant_events, in revision order.
// Properties come as [name, value] pairs, and temporal values as Cypher's own text with
// their type ([name, text, type]): Cypher reads its own forms back exactly, and the driver's
// temporal objects are slow to build.
MATCH (n:$($label) {tenant: $tenant})
WHERE $label <> 'Event' AND all(other IN labels(n) WHERE other >= $label)
RETURN elementId(n) AS ref, labels(n) AS labels,
       [name IN keys(n) | CASE
         WHEN valueType(n[name]) =~ '(LIST<)?(ZONED|LOCAL|DATE|DURATION).*'
         THEN [name, CASE WHEN n[name] :: LIST<ANY> THEN [x IN n[name] | toString(x)]
                          ELSE toString(n[name]) END, valueType(n[name])]
         ELSE [name, n[name]] END] AS properties
