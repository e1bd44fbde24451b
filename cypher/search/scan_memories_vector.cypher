// search, vector channel (exact): cosine similarity over every memory in the caller's scope,
// when the shared approximate index left too few of them.
MATCH (node:Memory)
USING INDEX node:Memory(tenant, project, updated_at)
WHERE node.tenant = $tenant AND node.project STARTS WITH coalesce($project, '')
  AND ($project IS NULL OR node.project = $project)
  AND node.updated_at IS NOT NULL AND node.embedding IS NOT NULL
  AND node.status IN $statuses
  AND ($type IS NULL OR node.type = $type)
  AND ($branch IS NULL OR node.branch IS NULL OR node.branch = $branch)
  AND (size($tags) = 0 OR any(tag IN node.tags WHERE tag IN $tags))
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
RETURN node.id AS id, node.type AS type, score
ORDER BY score DESC, id
LIMIT $pool
