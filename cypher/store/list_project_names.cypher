// Argument completion for project: the tenant's projects (holding facts or memories) that
// start with $prefix. (A composite index seeks only with a predicate on each property.)
CALL {
  MATCH (k:FactKey)
  USING INDEX SEEK k:FactKey(tenant, project, key)
  WHERE k.tenant = $tenant AND k.project STARTS WITH $prefix AND k.key IS NOT NULL
  RETURN DISTINCT k.project AS value
  ORDER BY value
  LIMIT $limit
  UNION
  MATCH (m:Memory)
  USING INDEX SEEK m:Memory(tenant, project, updated_at)
  WHERE m.tenant = $tenant AND m.project STARTS WITH $prefix AND m.updated_at IS NOT NULL
  RETURN DISTINCT m.project AS value
  ORDER BY value
  LIMIT $limit
}
RETURN DISTINCT value
ORDER BY value
LIMIT $limit
