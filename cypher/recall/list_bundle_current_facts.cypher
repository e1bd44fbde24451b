// context_bundle (now), current_truth: each key of the project (key-slot constraint's index,
// owner 'project:<p>', at most $key_cap keys) with its CURRENT fact, unless it has lapsed at $now.
MATCH (k:FactKey)
USING INDEX k:FactKey(tenant, owner, key)
WHERE k.tenant = $tenant AND k.owner = $owner AND k.key IS NOT NULL
WITH k ORDER BY k.key LIMIT $key_cap
MATCH (k)-[:CURRENT]->(f:Fact)
WHERE f.tenant = $tenant AND f.status = 'active'
  AND coalesce(f.effective_until > datetime($now), true)
RETURN f.id AS id, k.key AS key, f.value_json AS value_json, f.source_class AS source_class,
       f.verification_status AS verification_status,
       coalesce(f.contradiction_count, 0) AS contradiction_count,
       toString(f.recorded_at) AS recorded_at
