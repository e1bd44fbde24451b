// graphmem import: whether the tenant holds any node (an import needs an empty tenant).
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label) {tenant: $tenant})
  RETURN n LIMIT 1
}
RETURN count(n) > 0 AS found
