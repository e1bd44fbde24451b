// search, full-text channel: the caller's memories ranked by BM25 over their tenant-prefixed
// tokens (the query holds only the caller's tokens; hits are filtered on the tenant too),
// after the filters, best first, at most $pool.
CALL db.index.fulltext.queryNodes('memory_lexical', $lucene) YIELD node, score
WHERE node.tenant = $tenant AND node.status IN $statuses
  AND ($project IS NULL OR node.project = $project)
  AND ($type IS NULL OR node.type = $type)
  AND ($branch IS NULL OR node.branch IS NULL OR node.branch = $branch)
  AND (size($tags) = 0 OR any(tag IN node.tags WHERE tag IN $tags))
RETURN node.id AS id, node.type AS type, score
ORDER BY score DESC, id
LIMIT $pool
