// Browser guide: one key's facts over time, with their validity windows (valid time) and
// their stints as the current fact (transaction time), newest first.
MATCH (k:FactKey)-[:OF_KEY]-(f:Fact)
WHERE k.tenant = $tenant AND k.key = $key AND f.tenant = $tenant
OPTIONAL MATCH (k)-[stint:CURRENT|WAS_CURRENT]->(f)
RETURN f.value_canon AS value, f.status AS status, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.recorded_at AS recorded_at, stint.since AS current_since,
       stint.until AS current_until, f.source_class AS source, f.project AS project
ORDER BY f.recorded_at DESC
LIMIT 100
