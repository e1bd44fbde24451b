// current_state (memories side): every version of the topic named by the state key, per
// project (one project when given), newest version first, read in index order.
MATCH (m:Memory)
USING INDEX m:Memory(tenant, topic_key, project, topic_version)
WHERE m.tenant = $tenant AND m.topic_key = $key
  AND m.project STARTS WITH coalesce($project, '')
  AND ($project IS NULL OR m.project = $project)
  AND m.topic_version IS NOT NULL
WITH m ORDER BY m.project, m.topic_version DESC
WITH m.project AS project, collect(m)[..$limit] AS versions
RETURN project, versions
ORDER BY project
LIMIT $project_limit
