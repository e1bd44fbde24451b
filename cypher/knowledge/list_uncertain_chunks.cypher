// enrich_context (standard, deep): the next uncertain chunks to mine (never quarantined),
// untouched since the pass began, in index order (077) after a cursor ($after: the last
// chunk's updated_at and id, or null). Mining does not stamp updated_at, so the cursor holds.
MATCH (c:Chunk)
USING INDEX c:Chunk(tenant, state, updated_at)
WHERE c.tenant = $tenant AND c.state = 'uncertain'
  AND c.updated_at < datetime($untouched_before)
  AND ($after IS NULL OR c.updated_at > datetime($after.at)
       OR (c.updated_at = datetime($after.at) AND c.id > $after.id))
  AND NOT coalesce(c.quarantined, false)
WITH c ORDER BY c.updated_at, c.id LIMIT $limit
RETURN c.id AS id, toString(c.updated_at) AS at
