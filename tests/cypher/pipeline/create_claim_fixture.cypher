// Test fixture for the promotion policy table: a candidate claim with any scope, confidence
// and requires_human, evidenced by the given chunks (as extract_candidate_claims links them).
UNWIND $chunk_ids AS chunk_id
MATCH (k:Chunk {tenant: $tenant, id: chunk_id})
WITH collect(k) AS chunks
WITH chunks, chunks[0] AS first
CREATE (c:Claim {tenant: $tenant, id: $id, project: first.project, chunk_id: first.id,
                 subject: $subject, predicate: $predicate, object: $object,
                 subject_norm: toLower($subject), object_norm: toLower($object),
                 triple_key: toLower($subject) + '|' + $predicate + '|' + toLower($object),
                 scope: $scope, confidence: $confidence, requires_human: $requires_human,
                 status: 'candidate', created_at: datetime()})
FOREACH (k IN chunks |
  CREATE (c)-[:EVIDENCED_BY {type: 'source_chunk', weight: 1.0, at: datetime()}]->(k)
)
RETURN c.id AS id
