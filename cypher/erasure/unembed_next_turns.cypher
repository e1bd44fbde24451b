// After turns are erased ($refs, tombstones now): the turn said just after each one, when it
// stays, loses its vector, which encoded the erased turn's words with its own (a turn's vector
// reads the turn before it: cypher/retrieval/read_turn_vector_texts.cypher), and waits for a
// new one, Unembedded, read without the erased turn.
UNWIND $refs AS ref
MATCH (e:Erased)-[:NEXT]->(t:Turn)
WHERE elementId(e) = ref AND e.tenant = $tenant AND t.tenant = $tenant
  AND t.embedding IS NOT NULL
REMOVE t.embedding, t.embedding_model
SET t:Unembedded
RETURN count(t) AS unembedded
