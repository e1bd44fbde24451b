// The tenant's chain head: latest revision and hash (absent before the first write).
MATCH (h:History {tenant: $tenant})
RETURN h.revision AS revision, h.last_hash AS last_hash
