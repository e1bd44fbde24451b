// enrich_context: the active workstreams a warm task pack is built for, at most $limit
// (by id, i.e. creation order for server-generated ids), in index order.
MATCH (w:Workstream)
USING INDEX w:Workstream(tenant, status, id)
WHERE w.tenant = $tenant AND w.status = 'active' AND w.id IS NOT NULL
WITH w ORDER BY w.tenant, w.status, w.id LIMIT $limit
RETURN w.id AS id
