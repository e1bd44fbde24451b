// graphmem embeddings backfill: a batch of the tenant's archived turns gets vectors of $model
// (float32, the procedure's compact form). Outside the tenant's lock: each turn's lock is
// taken first and the turn looked at again under it (one an erasure tombstoned meanwhile gets
// no vector back).
UNWIND $items AS item
MATCH (t:Turn {tenant: $tenant, id: item.id})
SET t._lock = true
REMOVE t._lock
WITH t, item
WHERE t:Turn
SET t.embedding_model = $model
WITH t, item
CALL db.create.setNodeVectorProperty(t, 'embedding', item.embedding)
RETURN count(t) AS embedded
