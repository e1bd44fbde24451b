// Whether two facts are already linked by a contradiction (either direction).
MATCH (f:Fact {tenant: $tenant, id: $fact_id})-[c:CONTRADICTS]-(t:Fact {tenant: $tenant, id: $target_id})
RETURN count(c) AS existing
