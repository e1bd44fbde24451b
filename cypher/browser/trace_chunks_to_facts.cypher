// Browser guide: how chunks became facts: chunk <- claim evidenced by it -> promoted fact.
MATCH (c:Claim)
USING INDEX SEEK c:Claim(tenant, status, confidence)
WHERE c.tenant = $tenant AND c.status = 'promoted' AND c.confidence IS NOT NULL
  AND c.project = $project
MATCH path = (:Chunk)<-[:EVIDENCED_BY]-(c)-[:PROMOTED_TO]->(:Fact)
RETURN path
LIMIT 100
