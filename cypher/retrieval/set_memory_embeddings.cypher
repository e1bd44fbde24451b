// graphmem embeddings backfill and the start's catch-up: a batch of the tenant's memories gets vectors of $model
// (float32, the procedure's compact form). Outside the tenant's lock: each memory's lock is
// taken first and the memory looked at again under it (one an erasure tombstoned meanwhile
// gets no vector back).
UNWIND $items AS item
MATCH (m:Memory {tenant: $tenant, id: item.id})
SET m._lock = true
REMOVE m._lock
WITH m, item
WHERE m:Memory
SET m.embedding_model = $model
WITH m, item
CALL db.create.setNodeVectorProperty(m, 'embedding', item.embedding)
RETURN count(m) AS embedded
