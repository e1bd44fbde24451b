// Live decisions with a reopen rule on the key of any of these facts, or on the key of a fact
// in contradiction with one of them (push on fact writes: a contradiction made, cleared, or
// its other side governed changes the evidence of the rules on both keys).
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {tenant: $tenant, id: fact_id})
CALL (f) {
  MATCH (f)-[:OF_KEY]->(k:FactKey)
  RETURN k
  UNION
  MATCH (f)-[:CONTRADICTS]-(:Fact)-[:OF_KEY]->(k:FactKey)
  RETURN k
}
MATCH (k)<-[:REOPEN_WHEN]-(:Alternative)<-[:HAS_ALTERNATIVE]-(d:Decision)
WHERE d.status IN ['active', 'review_required', 'stale']
RETURN DISTINCT d.id AS id ORDER BY id
