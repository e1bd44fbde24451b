// graphmem export: the tenant's history events up to the head read first, in revision order.
// Properties come as [name, value] pairs, and temporal values as Cypher's own text with
// their type ([name, text, type]): Cypher reads its own forms back exactly, and the driver's
// temporal objects are slow to build.
MATCH (e:Event {tenant: $tenant})
WHERE e.revision <= $revision
RETURN elementId(e) AS ref, labels(e) AS labels,
       [name IN keys(e) | CASE
         WHEN valueType(e[name]) =~ '(LIST<)?(ZONED|LOCAL|DATE|DURATION).*'
         THEN [name, CASE WHEN e[name] :: LIST<ANY> THEN [x IN e[name] | toString(x)]
                          ELSE toString(e[name]) END, valueType(e[name])]
         ELSE [name, e[name]] END] AS properties
ORDER BY e.revision
