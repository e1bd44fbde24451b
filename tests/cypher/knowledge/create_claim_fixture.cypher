// Test fixture (used only until extract_candidate_claims exists in the tree): a claim in a
// given status evidenced by an existing chunk, optionally promoted to an existing fact.
MATCH (k:Chunk {tenant: $tenant, id: $chunk_id})
CREATE (c:Claim {tenant: $tenant, id: $id, project: k.project, chunk_id: k.id,
                 subject: $subject, predicate: $predicate, object: $object, scope: $scope,
                 confidence: $confidence, requires_human: $requires_human, status: $status,
                 created_at: datetime($now)})
CREATE (c)-[:EVIDENCED_BY {type: 'source_chunk', weight: 1.0, at: datetime($now)}]->(k)
WITH c
OPTIONAL MATCH (f:Fact {id: $fact_id})
WHERE f.tenant = $tenant
FOREACH (_ IN CASE WHEN f IS NULL THEN [] ELSE [1] END |
  CREATE (c)-[:PROMOTED_TO {at: datetime($now), mode: 'human_confirmed', reused: false}]->(f)
)
RETURN c.id AS id
