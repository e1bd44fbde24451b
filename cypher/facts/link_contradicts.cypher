// Record a contradiction between two facts and refresh both facts' open contradiction counts.
MATCH (f:Fact {tenant: $tenant, id: $fact_id})
MATCH (t:Fact {tenant: $tenant, id: $target_id})
CREATE (f)-[:CONTRADICTS {at: datetime($now), effective_at: datetime($effective_at),
                          rationale: $rationale}]->(t)
WITH f, t
UNWIND [f, t] AS side
SET side.contradiction_count = COUNT { (side)-[:CONTRADICTS]-(:Fact) },
    side.updated_at = datetime($now)
RETURN side.id AS id, side.contradiction_count AS contradiction_count
