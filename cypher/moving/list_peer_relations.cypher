// graphmem import --from mcp-neo4j-memory: one page of the PEER's relations (any relationship
// from one of its `Memory` nodes to another), in element id order after $after: a page at a
// time. An end without a string name comes back as null. The peer's database has no tenants:
// this statement leaves $tenant (always '-') unused.
MATCH (a:Memory)-[r]->(b:Memory)
WHERE $after IS NULL OR elementId(r) > $after
RETURN elementId(r) AS id,
       CASE WHEN toString(a.name) = a.name THEN a.name END AS source,
       type(r) AS type,
       CASE WHEN toString(b.name) = b.name THEN b.name END AS target
ORDER BY elementId(r)
LIMIT $limit
