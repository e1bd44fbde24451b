// recall_user_context, safe claims: the project's current facts whose claimed source is one of
// $classes (human_confirmed, production_verified), not lapsed at $now, newest first. The keys
// come from the key-slot constraint's index (owner 'project:<p>'), at most $key_cap of them.
MATCH (k:FactKey)
USING INDEX k:FactKey(tenant, owner, key)
WHERE k.tenant = $tenant AND k.owner = $owner AND k.key IS NOT NULL
WITH k ORDER BY k.key LIMIT $key_cap
MATCH (k)-[:CURRENT]->(f:Fact)
WHERE f.tenant = $tenant AND f.status = 'active' AND f.source_class IN $classes
  AND coalesce(f.effective_until > datetime($now), true)
RETURN f.id AS id, k.key AS key, f.value_json AS value_json, f.source_class AS source_class,
       coalesce(f.contradiction_count, 0) AS contradiction_count
ORDER BY f.recorded_at DESC, f.id
LIMIT $limit
