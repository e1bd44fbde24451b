// search, raw archive channel (vector, approximate): over-fetched from the shared index, then
// filtered to the caller's scope. `seen` is how many the index gave: fewer than $fetch means
// it gave all it holds, so the rows are exact.
CALL db.index.vector.queryNodes('turn_embedding', $fetch, $vector) YIELD node, score
WITH collect({node: node, score: score}) AS nearest
UNWIND nearest AS hit
WITH hit.node AS node, hit.score AS score, size(nearest) AS seen
WHERE node.tenant = $tenant AND NOT node.quarantined
  AND ($project IS NULL OR node.project = $project)
RETURN node.id AS id, null AS type, score, seen
ORDER BY score DESC, id
LIMIT $pool
