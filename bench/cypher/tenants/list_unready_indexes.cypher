// bench.tenants: the indexes not yet ONLINE and fully populated (the bench polls until none are
// left before it measures: a vector index still populating answers from part of its nodes).
SHOW INDEXES YIELD name, type, state, populationPercent
WHERE state <> 'ONLINE' OR populationPercent < 100.0
RETURN name, type, state, populationPercent
ORDER BY name
