// Test fixture (used only until queue_clarification exists in the tree): an open or
// answered question on an existing chunk.
MATCH (k:Chunk {tenant: $tenant, id: $chunk_id})
CREATE (q:Question {tenant: $tenant, id: $id, chunk_id: k.id, text: $text, type: $type,
                    priority: $priority, status: $status, created_at: datetime($now)})
CREATE (k)-[:HAS_QUESTION]->(q)
RETURN q.id AS id
