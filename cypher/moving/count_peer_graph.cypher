// graphmem import --from mcp-neo4j-memory: how much the PEER holds (its `Memory` nodes, those
// with a string name, and the relations between them), for the report and the progress bar,
// and whether it is a graphmem database (its schema stamp): never read as a peer.
// The peer's database has no tenants: this statement leaves $tenant (always '-') unused.
MATCH (e:Memory)
WITH count(e) AS entities, count(CASE WHEN toString(e.name) = e.name THEN 1 END) AS named
RETURN entities, named, COUNT { MATCH (:Memory)-[]->(:Memory) } AS relations,
       EXISTS { MATCH (:SchemaStamp {name: 'graphmem'}) } AS graphmem
