// The fact keys an erasure empties: keys of the facts it erases ($refs) with no fact left
// outside it (the key itself is content, e.g. a promoted claim's triple), unless a live
// decision watches or depends on the key (its rules need it; erasing the key by its name,
// a topic erasure, takes them).
UNWIND $refs AS ref
MATCH (f:Fact)-[:OF_KEY]->(k:FactKey)
WHERE elementId(f) = ref AND f.tenant = $tenant
WITH DISTINCT k
WHERE NOT EXISTS { MATCH (k)<-[:OF_KEY]-(other:Fact) WHERE NOT elementId(other) IN $refs }
  AND NOT EXISTS { (k)<-[:REOPEN_WHEN]-(:Alternative) }
  AND NOT EXISTS { (k)<-[:DEPENDS_ON]-(:Decision) }
RETURN elementId(k) AS ref, 'FactKey' AS kind, k.id AS id
