// context_bundle as of $at, current_truth: each key of the project (key-slot constraint's
// index, at most $key_cap keys) with the fact that was its active one at transaction time $at
// (recorded by then, its FactState then active and not lapsed at $at), if any.
MATCH (k:FactKey)
USING INDEX k:FactKey(tenant, owner, key)
WHERE k.tenant = $tenant AND k.owner = $owner AND k.key IS NOT NULL
WITH k ORDER BY k.key LIMIT $key_cap
CALL (k) {
  MATCH (f:Fact)
  USING INDEX f:Fact(tenant, slot_id, recorded_at)
  WHERE f.tenant = $tenant AND f.slot_id = k.id AND f.recorded_at <= datetime($at)
  MATCH (f)-[:HAS_STATE]->(s:FactState)
  WHERE s.tx_from <= datetime($at) AND (s.tx_to IS NULL OR s.tx_to > datetime($at))
    AND s.status = 'active'
    AND (s.valid_to IS NULL OR s.valid_to > datetime($at))
    AND (s.expires_at IS NULL OR s.expires_at > datetime($at))
  RETURN f ORDER BY f.recorded_at DESC, f.id DESC LIMIT 1
}
RETURN f.id AS id, k.key AS key, f.value_json AS value_json, f.source_class AS source_class,
       f.verification_status AS verification_status, 0 AS contradiction_count,
       toString(f.recorded_at) AS recorded_at
