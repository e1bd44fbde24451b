// The tenant's archived turns without a vector of $model, in id order from $after: those with
// none at all (written while embeddings were off: the start's catch-up, $replace false), or
// also another model's (graphmem embeddings backfill, $replace true). Each with the content of
// the turn said just before it (what its vector reads too, unless quarantined:
// cypher/retrieval/read_turn_vector_texts.cypher). The page is read in the (tenant, id)
// index's order and cut before the expansion, so a page costs its own rows, not the backlog's.
// The filter is a CASE, not an OR: the planner splits an OR into a union of two seeks and, on a
// graph with no turns yet (a first start's catch-up), sorts their union instead of paging.
MATCH (t:Turn) USING INDEX t:Turn(tenant, id)
WHERE t.tenant = $tenant AND t.id > $after
  AND CASE WHEN t.embedding_model IS NULL THEN true ELSE $replace AND t.embedding_model <> $model END
WITH t
ORDER BY t.tenant, t.id
LIMIT $limit
OPTIONAL MATCH (p:Turn)-[:NEXT]->(t)
WHERE p.tenant = $tenant AND NOT coalesce(p.quarantined, false)
RETURN t {.id, .ts, .content, previous: p.content, previous_id: p.id} AS item
ORDER BY item.id
