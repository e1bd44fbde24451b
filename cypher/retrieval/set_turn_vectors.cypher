// Vectors of archived turns, a batch per statement (the vector index refreshes once per batch):
// written behind archive_turns (graphmem/retrieval/indexing.py) and by `graphmem embeddings
// backfill`; the Unembedded label goes with them.
// Stored as float32 (the procedure's compact form) and stamped with their model. Outside the
// tenant's lock: each turn's own lock is taken first and the turn looked at again under it, so
// one an erasure tombstoned while this waited gets no vector back.
UNWIND $items AS item
MATCH (t:Turn {tenant: $tenant, id: item.id})
SET t._lock = true
REMOVE t._lock
WITH t, item
WHERE t:Turn
SET t.embedding_model = $model
REMOVE t:Unembedded
WITH t, item
CALL db.create.setNodeVectorProperty(t, 'embedding', item.embedding)
RETURN count(t) AS embedded
