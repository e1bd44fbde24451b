// search, raw archive channel (vector, exact): cosine similarity over the caller's turns of
// the project (or of the tenant) when the approximate index left too few of them.
MATCH (node:Turn)
USING INDEX node:Turn(tenant, project, ts)
WHERE node.tenant = $tenant AND node.project STARTS WITH coalesce($project, '')
  AND ($project IS NULL OR node.project = $project)
  AND node.ts IS NOT NULL AND node.embedding IS NOT NULL AND NOT node.quarantined
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
RETURN node.id AS id, null AS type, score
ORDER BY score DESC, id
LIMIT $pool
