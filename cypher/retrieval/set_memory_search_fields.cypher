// Write-behind search fields (graphmem/retrieval/indexing.py): one statement sets the
// full-text tokens and the vector of a batch of the tenant's saved memories, so the indexes
// refresh once per batch; the Unindexed label goes with them. Vectors are stored as float32
// (the procedure's compact form) and stamped with their model ($model; null without
// embeddings). It runs outside the tenant's lock: each memory's own lock is taken first and
// the memory looked at again under it, so one an erasure tombstoned while this waited gets
// nothing back (a read after the lock sees what committed before it).
UNWIND $memories AS item
MATCH (m:Memory {tenant: $tenant, id: item.id})
SET m._lock = true
REMOVE m._lock
WITH m, item
WHERE m:Memory
SET m.lexical = item.lexical,
    m.embedding_model = CASE WHEN item.embedding IS NULL THEN null ELSE $model END
REMOVE m:Unindexed
WITH m, item
CALL (m, item) {
  WITH m, item WHERE item.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(m, 'embedding', item.embedding)
}
RETURN count(m) AS indexed
