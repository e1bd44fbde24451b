// search, raw archive channel (vector, approximate): over-fetched from the shared index, then
// filtered to the caller's scope.
CALL db.index.vector.queryNodes('turn_embedding', $fetch, $vector) YIELD node, score
WITH node, score
WHERE node.tenant = $tenant AND NOT node.quarantined
  AND ($project IS NULL OR node.project = $project)
RETURN node.id AS id, null AS type, score
ORDER BY score DESC, id
LIMIT $pool
