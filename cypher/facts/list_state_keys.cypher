// Argument completion for state_key: the tenant's fact keys that start with $prefix,
// optionally in one project.
MATCH (k:FactKey)
USING INDEX SEEK k:FactKey(tenant, key)
WHERE k.tenant = $tenant AND k.key STARTS WITH $prefix
  AND ($project IS NULL OR k.project = $project)
RETURN DISTINCT k.key AS value
ORDER BY value
LIMIT $limit
