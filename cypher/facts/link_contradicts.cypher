// Record a contradiction between two facts (govern_fact then refreshes the counts).
MATCH (f:Fact {tenant: $tenant, id: $fact_id})
MATCH (t:Fact {tenant: $tenant, id: $target_id})
CREATE (f)-[:CONTRADICTS {at: datetime($now), effective_at: datetime($effective_at),
                          rationale: $rationale}]->(t)
SET f.updated_at = datetime($now), t.updated_at = datetime($now)
