// search without a query: a project's memories, newest update first, one page ($limit + 1).
MATCH (m:Memory)
USING INDEX m:Memory(tenant, project, updated_at)
WHERE m.tenant = $tenant AND m.project = $project AND m.updated_at IS NOT NULL
  AND m.status IN $statuses
  AND ($type IS NULL OR m.type = $type)
  AND ($branch IS NULL OR m.branch IS NULL OR m.branch = $branch)
  AND (size($tags) = 0 OR any(tag IN m.tags WHERE tag IN $tags))
WITH m ORDER BY m.updated_at DESC, m.id DESC SKIP $offset LIMIT $limit + 1
RETURN m.id AS id
