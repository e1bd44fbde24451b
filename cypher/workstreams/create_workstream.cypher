// create_workstream: a new workstream with a server-generated id.
CREATE (w:Workstream {
  tenant: $tenant, id: $id, project: $project, title: $title, status: $status,
  next_action: $next_action, blockers: $blockers, progress: $progress,
  created_at: datetime($now), updated_at: datetime($now),
  completed_at: CASE WHEN $status = 'completed' THEN datetime($now) ELSE null END
})
RETURN w AS workstream
