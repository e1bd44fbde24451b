// The subjects of these facts' keys and of the keys of facts in contradiction with them: a
// change to one is seen by the rules on every key naming the same subject
// (list_decisions_watching_facts).
UNWIND $fact_ids AS fact_id
OPTIONAL MATCH (f:Fact {tenant: $tenant, id: fact_id})
CALL (f) {
  MATCH (f)-[:OF_KEY]->(k:FactKey)
  RETURN k
  UNION
  MATCH (f)-[:CONTRADICTS]-(:Fact)-[:OF_KEY]->(k:FactKey)
  RETURN k
}
RETURN collect(DISTINCT k.subject) AS subjects
