// Browser guide: what is current in the project: each key and its active fact.
MATCH (k:FactKey)-[:CURRENT]->(f:Fact)
USING INDEX SEEK k:FactKey(tenant, project, key)
WHERE k.tenant = $tenant AND k.project = $project AND k.key IS NOT NULL AND f.tenant = $tenant
RETURN k, f
LIMIT 100
