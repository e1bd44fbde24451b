// bench.impact: bulk IMPACTS links between bench facts. Bench-only catalog (bench/cypher).
UNWIND $links AS link
MATCH (s:Fact {id: link.source})
WHERE s.tenant = $tenant
MATCH (t:Fact {id: link.target})
WHERE t.tenant = $tenant
CREATE (s)-[:IMPACTS {id: link.id, type: link.type, score: link.score, rationale: null,
                      created_at: datetime($now), updated_at: datetime($now)}]->(t)
