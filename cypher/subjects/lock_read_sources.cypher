// The sources a pass read, locked in id order ($ids sorted) before it records, as the search
// fields' batches lock them (never a circle): a write that changes a source's text while the
// pass runs (an answer to a chunk, a memory's release) has committed by now or waits for the
// pass, so what the pass records next (close_read_sources) sees each source as it stands. The
// mentions the sources hold before this pass records its own: those drop_stale_mentions
// replaces (a chunk read again), chosen by identity.
UNWIND $ids AS id
MATCH (n:Unread {tenant: $tenant, id: id})
SET n.subjects_lock = true
REMOVE n.subjects_lock
WITH n
OPTIONAL MATCH (n)-[:HAS_MENTION]->(old:Mention)
RETURN collect(old.id) AS stale
