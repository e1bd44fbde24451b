// A fact stops being its key's current fact; its stint is kept as WAS_CURRENT.
MATCH (k:FactKey {tenant: $tenant})-[c:CURRENT]->(f:Fact {tenant: $tenant, id: $id})
CREATE (k)-[:WAS_CURRENT {since: c.since, until: datetime($now)}]->(f)
DELETE c
RETURN f.id AS released
