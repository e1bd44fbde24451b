// graphmem embeddings backfill: the tenant's archived turns without a vector of $model
// (archived while embeddings were off, or by another model), in id order from $after, each
// with the content of the turn said just before it (what its vector reads too, unless
// quarantined: cypher/retrieval/read_turn_vector_texts.cypher).
MATCH (t:Turn)
WHERE t.tenant = $tenant AND t.id > $after
  AND (t.embedding_model IS NULL OR t.embedding_model <> $model)
OPTIONAL MATCH (p:Turn)-[:NEXT]->(t)
WHERE p.tenant = $tenant AND NOT coalesce(p.quarantined, false)
RETURN t {.id, .ts, .content, previous: p.content, previous_id: p.id} AS item
ORDER BY t.id
LIMIT $limit
