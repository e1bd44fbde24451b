// Vectors of archived turns, a batch per statement (the vector index refreshes once per batch):
// written behind archive_turns (graphmem/retrieval/indexing.py) and by `graphmem embeddings
// backfill`; the Unembedded label goes with them.
// Stored as float32 (the procedure's compact form) and stamped with their model. Outside the
// tenant's lock: each turn's own lock is taken first and the turn looked at again under it, so
// one an erasure tombstoned while this waited gets no vector back, nor one whose turn before
// is no longer the one its text was read with ($items' previous: its id, or null): erased
// meanwhile, its words must not come back in this vector (it stays Unembedded for a new one).
UNWIND $items AS item
MATCH (t:Turn {tenant: $tenant, id: item.id})
SET t._lock = true
REMOVE t._lock
WITH t, item
OPTIONAL MATCH (p:Turn)-[:NEXT]->(t)
WHERE p.tenant = $tenant AND NOT coalesce(p.quarantined, false)
WITH t, item, p
WHERE t:Turn AND (p.id = item.previous OR p IS NULL AND item.previous IS NULL)
SET t.embedding_model = $model
REMOVE t:Unembedded
WITH t, item
CALL db.create.setNodeVectorProperty(t, 'embedding', item.embedding)
RETURN count(t) AS embedded
