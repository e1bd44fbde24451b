// graphmem embeddings backfill: the tenant's memories without a vector of $model (written
// while embeddings were off, or by another model), in id order from $after.
MATCH (m:Memory)
WHERE m.tenant = $tenant AND m.id > $after
  AND (m.embedding_model IS NULL OR m.embedding_model <> $model)
RETURN m {.id, .type, .title, .content} AS item
ORDER BY m.id
LIMIT $limit
