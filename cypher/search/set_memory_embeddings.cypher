// graphmem embeddings backfill: a batch of the tenant's memories gets vectors of $model
// (float32, the procedure's compact form).
UNWIND $items AS item
MATCH (m:Memory {tenant: $tenant, id: item.id})
SET m.embedding_model = $model
WITH m, item
CALL db.create.setNodeVectorProperty(m, 'embedding', item.embedding)
RETURN count(m) AS embedded
