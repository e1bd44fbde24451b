// graphmem export and import: how many nodes the tenant holds (a progress bar's total).
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label) {tenant: $tenant})
  RETURN count(n) AS count
}
RETURN sum(count) AS count
