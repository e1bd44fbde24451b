// save_memory: the newest version number of a topic in a project and its active version (if
// any), read in index order.
OPTIONAL MATCH (m:Memory)
USING INDEX m:Memory(tenant, topic_key, project, topic_version)
WHERE m.tenant = $tenant AND m.topic_key = $topic_key AND m.project = $project
  AND m.topic_version IS NOT NULL
WITH m ORDER BY m.topic_version DESC
WITH collect(m) AS versions
RETURN coalesce(versions[0].topic_version, 0) AS latest_version,
       [v IN versions WHERE v.status = 'active'][0] AS active
