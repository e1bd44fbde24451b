// Test helper: a chunk with its questions (oldest first), its answers (with the questions
// each one answered) and its run-history entries (oldest first).
MATCH (c:Chunk {tenant: $tenant, id: $id})
RETURN c AS chunk,
  COLLECT {
    MATCH (c)-[:HAS_QUESTION]->(q:Question)
    WITH q ORDER BY q.created_at, q.id
    RETURN q
  } AS questions,
  COLLECT {
    MATCH (c)-[:HAS_ANSWER]->(a:Answer)
    WITH a ORDER BY a.created_at, a.id
    RETURN a {.*, answered: [(q:Question)-[:ANSWERED_BY]->(a) | q.id]}
  } AS answers,
  COLLECT {
    MATCH (r:Run) WHERE r.tenant = $tenant AND r.subject_id = c.id
    WITH r ORDER BY r.at, r.id  // sort the nodes, then project (a projection hides r.at)
    RETURN r {.tool, .status, .reason, .counters_json}
  } AS runs
