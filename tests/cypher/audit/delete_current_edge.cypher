// Test fixture: drop the CURRENT edge to a fact (slot drift).
MATCH (k:FactKey)-[c:CURRENT]->(f:Fact {tenant: $tenant, id: $fact_id})
DELETE c
RETURN k.id AS key_id
