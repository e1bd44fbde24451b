// Browser guide: what the key's current fact impacts: recorded IMPACTS links (up to three
// hops) and the derived edges: decisions resting on it and reopen rules watching its key.
MATCH (k:FactKey)-[:CURRENT]->(f:Fact)
WHERE k.tenant = $tenant AND k.key = $key
OPTIONAL MATCH recorded = (f)-[:IMPACTS*1..3]->()
WHERE all(n IN nodes(recorded) WHERE n.tenant = $tenant)
OPTIONAL MATCH rests = (f)<-[:DEPENDS_ON]-(:Decision)
OPTIONAL MATCH watched = (k)<-[:REOPEN_WHEN]-(:Alternative)<-[:HAS_ALTERNATIVE]-(:Decision)
RETURN k, f, collect(DISTINCT recorded)[..50] AS recorded, collect(DISTINCT rests)[..50] AS rests,
       collect(DISTINCT watched)[..50] AS watched
