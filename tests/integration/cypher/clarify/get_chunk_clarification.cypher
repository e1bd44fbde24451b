// Test helper: a chunk with its questions (oldest first), its answers (with the questions
// each one answered) and its run-history entries (oldest first).
MATCH (c:Chunk {tenant: $tenant, id: $id})
RETURN c AS chunk,
  COLLECT { MATCH (c)-[:HAS_QUESTION]->(q:Question) RETURN q ORDER BY q.created_at, q.id }
    AS questions,
  COLLECT {
    MATCH (c)-[:HAS_ANSWER]->(a:Answer)
    RETURN a {.*, answered: [(q:Question)-[:ANSWERED_BY]->(a) | q.id]}
    ORDER BY a.created_at, a.id
  } AS answers,
  COLLECT {
    MATCH (r:Run) WHERE r.tenant = $tenant AND r.subject_id = c.id
    RETURN r {.tool, .status, .reason, .counters_json} ORDER BY r.at, r.id
  } AS runs
