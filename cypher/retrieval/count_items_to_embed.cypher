// graphmem embeddings backfill: how many memories and turns of the tenant lack a vector of
// $model (the progress bar's length).
CALL {
  MATCH (m:Memory)  // by the (tenant, id) index, as the listing reads them
  WHERE m.tenant = $tenant AND m.id > ''
    AND (m.embedding_model IS NULL OR m.embedding_model <> $model)
  RETURN count(m) AS memories
}
CALL {
  MATCH (t:Turn)
  WHERE t.tenant = $tenant AND t.id > ''
    AND (t.embedding_model IS NULL OR t.embedding_model <> $model)
  RETURN count(t) AS turns
}
RETURN memories, turns
