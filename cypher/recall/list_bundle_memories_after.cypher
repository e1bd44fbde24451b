// context_bundle as of $at: the project's memories created after $at (oldest first, at most
// $cap), audited as not_yet_known; rejected and deleted ones never appear.
MATCH (m:Memory)
USING INDEX m:Memory(tenant, project, created_at)
WHERE m.tenant = $tenant AND m.project = $project AND m.created_at > datetime($at)
  AND NOT m.status IN ['rejected', 'deleted']
WITH m ORDER BY m.created_at, m.id LIMIT $cap
RETURN m.id AS id, m.type AS type
