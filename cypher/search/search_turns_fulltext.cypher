// search, raw archive channel (full-text): the caller's turns by BM25 over tenant-prefixed
// tokens (Lucene's top-$fetch are the caller's), quarantined ones and other projects left
// out, at most $pool, best first. One row: `fetched` = $fetch means Lucene had more to give.
CALL db.index.fulltext.queryNodes('turn_lexical', $lucene, {limit: $fetch}) YIELD node, score
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS fetched, [hit IN hits
  WHERE hit.node.tenant = $tenant AND NOT hit.node.quarantined
    AND ($project IS NULL OR hit.node.project = $project)
  | {id: hit.node.id, type: null, score: hit.score}][..$pool] AS hits
