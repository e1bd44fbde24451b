// enrich_context's next chunks to assess, in index order (077), longest untouched first:
// the enrichable chunks untouched since the pass began, and under enrich_policy auto the
// never-assessed no_enrich ones (assessing may unlock them). Assessing a chunk stamps
// updated_at, so a pass assesses each chunk once.
CALL () {
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE c.tenant = $tenant AND c.state = 'enrichable'
    AND c.updated_at < datetime($untouched_before)
  RETURN c
  ORDER BY c.updated_at LIMIT $limit
  UNION
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE $policy = 'auto' AND c.tenant = $tenant AND c.state = 'no_enrich'
    AND c.updated_at < datetime($untouched_before) AND c.last_assessed_at IS NULL
    AND NOT coalesce(c.quarantined, false)
  RETURN c
  ORDER BY c.updated_at LIMIT $limit
}
WITH c ORDER BY c.updated_at, c.id LIMIT $limit
RETURN collect(c.id) AS chunks
