// workstreams: one project's workstreams of the given statuses, newest update first, one page
// ($limit + 1 rows so the caller knows whether more follow).
MATCH (w:Workstream)
USING INDEX w:Workstream(tenant, project, status, updated_at)
WHERE w.tenant = $tenant AND w.project = $project AND w.status IN $statuses
  AND w.updated_at IS NOT NULL
WITH w ORDER BY w.updated_at DESC, w.id DESC SKIP $offset LIMIT $limit + 1
RETURN w AS workstream
