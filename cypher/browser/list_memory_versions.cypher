// Browser guide: a memory topic's versions, each superseding the one before.
MATCH (m:Memory)
USING INDEX SEEK m:Memory(tenant, topic_key, project, topic_version)
WHERE m.tenant = $tenant AND m.project = $project AND m.topic_key = $topic_key
  AND m.topic_version IS NOT NULL
OPTIONAL MATCH replaced = (m)-[:SUPERSEDES]->(:Memory)
RETURN m, replaced
LIMIT 100
