// promote_candidate: the live fact of a key slot (CURRENT, active, not lapsed at $now) that
// states the same triple, if any: an identical fact a promotion reinforces instead of
// recording a new one (a fact recorded under the key with another value is superseded).
MATCH (k:FactKey {tenant: $tenant, owner: $owner, key: $key})-[:CURRENT]->(f:Fact)
WHERE f.status = 'active' AND coalesce(f.effective_until > datetime($now), true)
  AND coalesce(f.object_norm, toLower(trim(f.value_text))) = $object_norm
RETURN f.id AS fact_id
