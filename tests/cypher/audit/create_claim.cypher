// Test fixture: a claim with the given status and fact_id; EVIDENCED_BY to $chunk_id when that
// chunk exists; PROMOTED_TO $fact_id when $link; $fact_claim sets the fact's claim_id to it.
CREATE (c:Claim {tenant: $tenant, id: $id, status: $status, fact_id: $fact_id,
                 chunk_id: $chunk_id, subject: 'cache', predicate: 'is', object: 'stale',
                 confidence: 0.7, validation_mode: 'human_confirmed', created_at: datetime(),
                 promoted_at: CASE WHEN $status = 'promoted' THEN datetime() END})
WITH c
OPTIONAL MATCH (k:Chunk {id: $chunk_id})
WHERE k.tenant = $tenant
FOREACH (_ IN CASE WHEN k IS NULL THEN [] ELSE [1] END |
  CREATE (c)-[:EVIDENCED_BY {type: 'source_chunk', weight: 1.0, at: datetime()}]->(k)
)
WITH c
OPTIONAL MATCH (f:Fact {id: $fact_id})
WHERE f.tenant = $tenant
FOREACH (_ IN CASE WHEN f IS NOT NULL AND $link THEN [1] ELSE [] END |
  CREATE (c)-[:PROMOTED_TO {at: datetime(), mode: 'human_confirmed', reused: false}]->(f)
)
FOREACH (_ IN CASE WHEN f IS NOT NULL AND $fact_claim THEN [1] ELSE [] END |
  SET f.claim_id = c.id
)
RETURN c.id AS id
