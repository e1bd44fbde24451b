// enrich_context's work, in index order (077), longest untouched first, at most $limit each:
// the enrichable chunks it assesses, under enrich_policy auto also the never-assessed
// no_enrich chunks (assessing may unlock them), and the uncertain chunks (never quarantined)
// it also mines at standard and deep. Assessing a chunk stamps updated_at, so the next run starts
// where this one stopped.
RETURN COLLECT {
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE c.tenant = $tenant AND c.state = 'enrichable' AND c.updated_at IS NOT NULL
  WITH c ORDER BY c.tenant, c.state, c.updated_at LIMIT $limit
  RETURN c.id
} AS enrichable,
COLLECT {
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE $policy = 'auto' AND c.tenant = $tenant AND c.state = 'no_enrich'
    AND c.updated_at IS NOT NULL AND c.last_assessed_at IS NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant, c.state, c.updated_at LIMIT $limit
  RETURN c.id
} AS unassessed,
COLLECT {
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE c.tenant = $tenant AND c.state = 'uncertain' AND c.updated_at IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant, c.state, c.updated_at LIMIT $limit
  RETURN c.id
} AS uncertain
