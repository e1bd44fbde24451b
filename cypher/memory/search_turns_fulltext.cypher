// search, raw archive channel (full-text): the caller's turns by BM25 over tenant-prefixed
// tokens, quarantined ones excluded, best first, at most $pool.
CALL db.index.fulltext.queryNodes('turn_lexical', $lucene) YIELD node, score
WHERE node.tenant = $tenant AND NOT node.quarantined
  AND ($project IS NULL OR node.project = $project)
RETURN node.id AS id, null AS type, score
ORDER BY score DESC, id
LIMIT $pool
