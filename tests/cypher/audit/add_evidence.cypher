// Test fixture: link a claim to a chunk as its evidence.
MATCH (c:Claim {tenant: $tenant, id: $claim_id})
MATCH (k:Chunk {tenant: $tenant, id: $chunk_id})
CREATE (c)-[:EVIDENCED_BY {type: 'source_chunk', weight: 1.0, at: datetime()}]->(k)
RETURN c.id AS id
