// One question of one chunk (another chunk's question, or another tenant's, is not found).
MATCH (c:Chunk {tenant: $tenant, id: $chunk_id})-[:HAS_QUESTION]->(q:Question {id: $question_id})
RETURN q AS question
