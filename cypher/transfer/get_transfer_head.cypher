// graphmem export: the tenant's history head, read before and after the export (a head that
// moved means the tenant changed meanwhile and the export is taken again).
OPTIONAL MATCH (h:History {tenant: $tenant})
RETURN h.revision AS revision, h.last_hash AS hash, h.key_id AS key_id
