// A chunk's open clarification questions, highest priority first (queue_clarification reuses
// identical ones instead of duplicating them; record_human_answer resolves them).
MATCH (c:Chunk {tenant: $tenant, id: $chunk_id})-[:HAS_QUESTION]->(q:Question)
WHERE q.status = 'open'
RETURN q AS question
ORDER BY q.priority DESC, q.created_at, q.id
LIMIT $limit
