// graphmem embeddings backfill: a batch of the tenant's archived turns gets vectors of $model
// (float32, the procedure's compact form).
UNWIND $items AS item
MATCH (t:Turn {tenant: $tenant, id: item.id})
SET t.embedding_model = $model
WITH t, item
CALL db.create.setNodeVectorProperty(t, 'embedding', item.embedding)
RETURN count(t) AS embedded
