// Persist new open clarification questions of one chunk: (chunk)-[:HAS_QUESTION]->(q).
MATCH (c:Chunk {tenant: $tenant, id: $chunk_id})
UNWIND $questions AS item
CREATE (c)-[:HAS_QUESTION {at: datetime($now)}]->(q:Question {
  id: item.id, tenant: $tenant, chunk_id: c.id, project: c.project, text: item.text,
  type: item.type, priority: item.priority, reason: item.reason, status: 'open',
  source_hash: c.source_hash, created_at: datetime($now), updated_at: datetime($now),
  answered_at: null, answer: null, answer_id: null, session_id: $session_id, actor: $actor
})
RETURN q AS question
