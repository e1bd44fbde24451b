// The tenant's memories without a vector of $model, in id order from $after: those with none
// at all (written while embeddings were off: the start's catch-up, $replace false), or also
// another model's (graphmem embeddings backfill, $replace true). Read in the (tenant, id)
// index's order, so a page costs its own rows, not the backlog's. The filter is a CASE, not an
// OR: the planner splits an OR into a union of two seeks and, on a graph with no memories yet
// (a first start's catch-up), sorts their union instead of paging.
MATCH (m:Memory) USING INDEX m:Memory(tenant, id)
WHERE m.tenant = $tenant AND m.id > $after
  AND CASE WHEN m.embedding_model IS NULL THEN true ELSE $replace AND m.embedding_model <> $model END
WITH m
ORDER BY m.tenant, m.id
LIMIT $limit
RETURN m {.id, .type, .title, .content} AS item
