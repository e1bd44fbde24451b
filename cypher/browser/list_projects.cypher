// Browser guide, first slide: the tenant's projects that hold facts, with their key counts.
MATCH (k:FactKey)
USING INDEX SEEK k:FactKey(tenant, project, key)
WHERE k.tenant = $tenant AND k.project IS NOT NULL AND k.key IS NOT NULL
RETURN k.project AS project, count(*) AS keys
ORDER BY keys DESC, project
LIMIT 100
