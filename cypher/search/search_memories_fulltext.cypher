// search, full-text channel: the caller's memories ranked by BM25 over their tenant-prefixed
// tokens. The query holds only the caller's tokens, so Lucene's top-$fetch are the caller's;
// the filters then keep at most $pool of them, best first. One row: `fetched` tells the
// caller whether Lucene had more to give (fetched = $fetch) when the filters kept too few.
CALL db.index.fulltext.queryNodes('memory_lexical', $lucene, {limit: $fetch}) YIELD node, score
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS fetched, [hit IN hits
  WHERE hit.node.tenant = $tenant AND hit.node.status IN $statuses
    AND ($project IS NULL OR hit.node.project = $project)
    AND ($type IS NULL OR hit.node.type = $type)
    AND ($branch IS NULL OR hit.node.branch IS NULL OR hit.node.branch = $branch)
    AND (size($tags) = 0 OR any(tag IN hit.node.tags WHERE tag IN $tags))
  | {id: hit.node.id, type: hit.node.type, score: hit.score}][..$pool] AS hits
