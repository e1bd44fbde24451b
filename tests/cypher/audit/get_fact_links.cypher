// Test helper: a fact with the claims PROMOTED_TO it.
MATCH (f:Fact {tenant: $tenant, id: $id})
RETURN f AS fact, [(c:Claim)-[:PROMOTED_TO]->(f) | c.id] AS claims
