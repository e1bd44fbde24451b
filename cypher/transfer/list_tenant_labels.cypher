// graphmem export: the labels the tenant's nodes carry (the export walks them label by label).
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label) {tenant: $tenant})
  RETURN n LIMIT 1
}
RETURN DISTINCT label ORDER BY label
