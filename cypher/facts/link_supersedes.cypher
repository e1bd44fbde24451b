// Record that one fact supersedes another.
MATCH (newer:Fact {tenant: $tenant, id: $newer_id})
MATCH (older:Fact {tenant: $tenant, id: $older_id})
CREATE (newer)-[:SUPERSEDES {at: datetime($now), effective_at: datetime($effective_at),
                             rationale: $rationale}]->(older)
