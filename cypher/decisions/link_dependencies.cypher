// A decision rests on facts (DEPENDS_ON a Fact) or on keys in its project (DEPENDS_ON the
// key's slot, whatever fact is current there).
MATCH (d:Decision {tenant: $tenant, id: $decision_id})
CALL (d) {
  UNWIND $fact_ids AS fact_id
  MATCH (f:Fact {tenant: $tenant, id: fact_id})
  CREATE (d)-[:DEPENDS_ON {at: datetime($now)}]->(f)
}
CALL (d) {
  UNWIND $keys AS dependency
  MERGE (k:FactKey {tenant: $tenant, owner: $owner, key: dependency.key})
    ON CREATE SET k.id = dependency.key_id, k.project = $project, k.origin_id = null,
                  k.created_at = datetime($now), k.updated_at = datetime($now)
  SET k.subject = dependency.subject, k.attribute = dependency.attribute
  CREATE (d)-[:DEPENDS_ON {at: datetime($now)}]->(k)
}
