// graphmem export: the tenant's history events up to the head read first, in revision order.
MATCH (e:Event {tenant: $tenant})
WHERE e.revision <= $revision
RETURN elementId(e) AS ref, labels(e) AS labels, properties(e) AS properties
ORDER BY e.revision
