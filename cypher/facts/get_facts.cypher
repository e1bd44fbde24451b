// Facts by id within the tenant, with the key slot they live in and whether they are current.
UNWIND $ids AS fact_id
MATCH (f:Fact {tenant: $tenant, id: fact_id})
OPTIONAL MATCH (k:FactKey)-[:CURRENT]->(f)
RETURN f AS fact, k IS NOT NULL AS is_current
