// Live decisions with a reopen rule on the key of any of these facts, or on the key of a fact
// in contradiction with one of them (push on fact writes: a contradiction made, cleared, or
// its other side governed changes the evidence of the rules on both keys), or on a key of the
// same owner naming the same subject under the same attribute (the subject's $spellings).
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {tenant: $tenant, id: fact_id})
CALL (f) {
  MATCH (f)-[:OF_KEY]->(k:FactKey)
  RETURN k
  UNION
  MATCH (f)-[:CONTRADICTS]-(:Fact)-[:OF_KEY]->(k:FactKey)
  RETURN k
}
CALL (k) {
  RETURN k AS watched
  UNION
  UNWIND coalesce($spellings[k.subject], []) AS spelling
  MATCH (watched:FactKey {tenant: $tenant, subject: spelling, attribute: k.attribute})
  USING INDEX SEEK watched:FactKey(tenant, subject, attribute)
  WHERE watched.owner = k.owner
  RETURN watched
}
MATCH (watched)<-[:REOPEN_WHEN]-(:Alternative)<-[:HAS_ALTERNATIVE]-(d:Decision)
WHERE d.status IN ['active', 'review_required', 'stale']
RETURN DISTINCT d.id AS id ORDER BY id
