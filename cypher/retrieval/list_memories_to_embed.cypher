// The tenant's memories without a vector of $model, in id order from $after: those with none
// at all (written while embeddings were off: the start's catch-up, $replace false), or also
// another model's (graphmem embeddings backfill, $replace true). Read in the (tenant, id)
// index's order, so a page costs its own rows, not the backlog's.
MATCH (m:Memory) USING INDEX m:Memory(tenant, id)
WHERE m.tenant = $tenant AND m.id > $after
  AND (m.embedding_model IS NULL OR ($replace AND m.embedding_model <> $model))
WITH m
ORDER BY m.tenant, m.id
LIMIT $limit
RETURN m {.id, .type, .title, .content} AS item
