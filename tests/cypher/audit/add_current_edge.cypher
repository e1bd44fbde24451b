// Test fixture: an extra CURRENT edge from a fact's key to it (slot drift).
MATCH (f:Fact {tenant: $tenant, id: $fact_id})-[:OF_KEY]->(k:FactKey)
CREATE (k)-[:CURRENT {since: datetime()}]->(f)
RETURN k.id AS key_id
