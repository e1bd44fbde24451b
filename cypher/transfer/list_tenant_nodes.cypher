// graphmem export: the tenant's nodes of one label, each once (under its first label in
// alphabetical order), with the source's element id as the file's reference. Events are
// listed by list_tenant_events, in revision order.
MATCH (n:$($label) {tenant: $tenant})
WHERE $label <> 'Event' AND all(other IN labels(n) WHERE other >= $label)
RETURN elementId(n) AS ref, labels(n) AS labels, properties(n) AS properties
