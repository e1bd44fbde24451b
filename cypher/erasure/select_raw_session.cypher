// An erasure's roots: one raw-archive session (its turns follow by expansion).
MATCH (n:Session {tenant: $tenant, id: $session})
RETURN elementId(n) AS ref, 'Session' AS kind, n.id AS id
