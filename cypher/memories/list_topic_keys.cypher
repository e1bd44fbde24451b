// Argument completion for topic_key: the tenant's memory topics that start with $prefix,
// optionally in one project.
MATCH (m:Memory)
USING INDEX SEEK m:Memory(tenant, topic_key, project, topic_version)
WHERE m.tenant = $tenant AND m.topic_key STARTS WITH $prefix
  AND m.project IS NOT NULL AND m.topic_version IS NOT NULL
  AND ($project IS NULL OR m.project = $project)
RETURN DISTINCT m.topic_key AS value
ORDER BY value
LIMIT $limit
