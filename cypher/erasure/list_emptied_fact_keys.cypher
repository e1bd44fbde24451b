// The fact keys an erasure empties: keys of the facts it erases ($refs) with no fact left
// outside it (the key itself is content, e.g. a promoted claim's triple).
UNWIND $refs AS ref
MATCH (f:Fact)-[:OF_KEY]->(k:FactKey)
WHERE elementId(f) = ref AND f.tenant = $tenant
WITH DISTINCT k
WHERE NOT EXISTS { MATCH (k)<-[:OF_KEY]-(other:Fact) WHERE NOT elementId(other) IN $refs }
RETURN elementId(k) AS ref, 'FactKey' AS kind, k.id AS id
