// graphmem import --from mcp-neo4j-memory: one page of the PEER's entities (its `Memory`
// nodes, in the peer's own database, never graphmem's), in name order after ($after_name,
// $after_id): the import reads a page at a time, never the whole graph. A node whose name is
// not a string is not listed (moving/count_peer_graph counts it). The peer's database has no
// tenants: this statement leaves $tenant (always '-') unused.
MATCH (e:Memory)
WHERE toString(e.name) = e.name
  AND ($after_name IS NULL OR e.name > $after_name
       OR (e.name = $after_name AND elementId(e) > $after_id))
RETURN elementId(e) AS id, e.name AS name, e.type AS type,
       coalesce(e.observations, []) AS observations
ORDER BY e.name, elementId(e)
LIMIT $limit
