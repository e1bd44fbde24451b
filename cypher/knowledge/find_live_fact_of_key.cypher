// promote_candidate: the live fact of a key slot (CURRENT, active, not lapsed at $now), if any:
// an identical fact a promotion reinforces instead of recording a new one.
MATCH (k:FactKey {tenant: $tenant, owner: $owner, key: $key})-[:CURRENT]->(f:Fact)
WHERE f.status = 'active' AND coalesce(f.effective_until > datetime($now), true)
RETURN f.id AS fact_id
