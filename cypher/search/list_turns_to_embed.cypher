// graphmem embeddings backfill: the tenant's archived turns without a vector of $model
// (archived while embeddings were off, or by another model), in id order from $after.
MATCH (t:Turn)
WHERE t.tenant = $tenant AND t.id > $after
  AND (t.embedding_model IS NULL OR t.embedding_model <> $model)
RETURN t {.id, .ts, .content} AS item
ORDER BY t.id
LIMIT $limit
