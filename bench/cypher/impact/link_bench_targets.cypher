// bench.impact: bulk IMPACTS links from bench facts to external targets. Bench-only catalog.
UNWIND $links AS link
MATCH (s:Fact {id: link.source})
WHERE s.tenant = $tenant
MATCH (t:ImpactTarget {tenant: $tenant, kind: link.kind, ref: link.target})
CREATE (s)-[:IMPACTS {id: link.id, type: link.type, score: link.score, rationale: null,
                      created_at: datetime($now), updated_at: datetime($now)}]->(t)
