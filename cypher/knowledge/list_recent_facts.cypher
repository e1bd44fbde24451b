// enrich_context (deep): the newest live facts (active, not lapsed at $now), in index order
// (073), at most $limit.
MATCH (f:Fact)
USING INDEX f:Fact(tenant, status, recorded_at)
WHERE f.tenant = $tenant AND f.status = 'active' AND f.recorded_at IS NOT NULL
  AND coalesce(f.effective_until > datetime($now), true)
WITH f ORDER BY f.tenant DESC, f.status DESC, f.recorded_at DESC LIMIT $limit
RETURN f.id AS id
