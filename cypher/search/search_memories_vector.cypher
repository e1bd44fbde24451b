// search, vector channel (approximate): nearest memories by the vector index, over-fetched
// ($fetch) because the index is shared, then filtered to the caller's scope. `seen` is how
// many the index gave: fewer than $fetch means it gave all it holds, so the rows are exact.
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $vector) YIELD node, score
WITH collect({node: node, score: score}) AS nearest
UNWIND nearest AS hit
WITH hit.node AS node, hit.score AS score, size(nearest) AS seen
WHERE node.tenant = $tenant AND node.status IN $statuses
  AND ($project IS NULL OR node.project = $project)
  AND ($type IS NULL OR node.type = $type)
  AND ($branch IS NULL OR node.branch IS NULL OR node.branch = $branch)
  AND (size($tags) = 0 OR any(tag IN node.tags WHERE tag IN $tags))
RETURN node.id AS id, node.type AS type, score, seen
ORDER BY score DESC, id
LIMIT $pool
