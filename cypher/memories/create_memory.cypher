// save_memory: a new memory (a first one, or a new version of its topic). It is linked to the
// session it was saved in only when that id names one of the caller's archived sessions. Its
// search fields follow in a batch (graphmem/retrieval/indexing.py): Unindexed until then.
CREATE (m:Memory:Unindexed:Unread {
  tenant: $tenant, id: $id, project: $project, type: $type, title: $title, content: $content,
  topic_key: $topic_key, topic_version: $topic_version, branch: $branch, tags: $tags,
  files: $files, status: $status, version: 1, created_at: datetime($now),
  updated_at: datetime($now), session_id: $session_id, quarantine_reasons: $quarantine_reasons,
  redactions: $redactions, access_count: 0, revision: $revision, about: $about
})
SET m.active_from = CASE WHEN $status = 'active' THEN datetime($now) END
WITH m
OPTIONAL MATCH (s:Session {tenant: $tenant, id: $session_id})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (m)-[:IN_SESSION]->(s))
RETURN m AS memory
