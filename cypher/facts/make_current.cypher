// Make a fact its key's current fact. A fact that was current there is returned so the
// caller can supersede it; its stint is kept as WAS_CURRENT.
MATCH (f:Fact {tenant: $tenant, id: $id})-[:OF_KEY]->(k:FactKey)
OPTIONAL MATCH (k)-[c:CURRENT]->(displaced:Fact)
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END |
  CREATE (k)-[:WAS_CURRENT {since: c.since, until: datetime($now)}]->(displaced)
)
DELETE c
WITH f, k, displaced
CALL (k) {  // a current fact erased since (current_state said so): its link goes now
  MATCH (k)-[gone:CURRENT]->(:Erased) DELETE gone
}
CREATE (k)-[:CURRENT {since: datetime($now)}]->(f)
RETURN displaced.id AS displaced_id
