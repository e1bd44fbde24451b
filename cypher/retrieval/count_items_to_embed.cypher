// How many memories and turns of the tenant lack a vector of $model (with $replace false: lack
// any vector): the backfill's progress bar, the catch-up's notice.
CALL {
  MATCH (m:Memory) USING INDEX m:Memory(tenant, id)
  WHERE m.tenant = $tenant AND m.id > ''
    AND (m.embedding_model IS NULL OR ($replace AND m.embedding_model <> $model))
  RETURN count(m) AS memories
}
CALL {
  MATCH (t:Turn) USING INDEX t:Turn(tenant, id)
  WHERE t.tenant = $tenant AND t.id > ''
    AND (t.embedding_model IS NULL OR ($replace AND t.embedding_model <> $model))
  RETURN count(t) AS turns
}
RETURN memories, turns
