// After turns are erased ($refs, tombstones now): the turn said just after each one, when it
// stays, loses its vector, which encoded the erased turn's words with its own (a turn's vector
// reads the turn before it: cypher/retrieval/read_turn_vector_texts.cypher), and waits for a
// new one, Unembedded, read without the erased turn. Written even when it has no vector yet:
// the write takes its lock, so a vector computed from the erased words and written meanwhile
// is either written before (and removed here) or refused (set_turn_vectors checks the turn
// before is still the one it read).
UNWIND $refs AS ref
MATCH (e:Erased)-[:NEXT]->(t:Turn)
WHERE elementId(e) = ref AND e.tenant = $tenant AND t.tenant = $tenant
REMOVE t.embedding, t.embedding_model
SET t:Unembedded
RETURN count(t) AS unembedded
