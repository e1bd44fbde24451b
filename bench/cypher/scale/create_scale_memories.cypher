// bench.scale: bulk-create curated memories shaped like save_memory's (memories/create_memory):
// each the active first version of its own topic, with the tenant-prefixed lexical tokens the
// memory_lexical full-text index reads, linked IN_SESSION when saved in an archived session.
// The session is found before anything is created (a MATCH after the CREATEs can be planned
// as a scan per row).
UNWIND $memories AS row
OPTIONAL MATCH (s:Session {tenant: $tenant, id: row.session_id})
CREATE (m:Memory {
  tenant: $tenant, id: row.id, project: $project, type: row.type, title: row.title,
  content: row.content, topic_key: row.topic_key, topic_version: 1, branch: null,
  tags: row.tags, files: [], status: 'active', version: 1, created_at: datetime(row.at),
  updated_at: datetime(row.at), session_id: row.session_id, quarantine_reasons: [],
  redactions: [], access_count: 0, lexical: row.lexical, revision: row.revision
})
SET m.active_from = datetime(row.at), m.embedding = row.embedding
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (m)-[:IN_SESSION]->(s))
RETURN count(*) AS created
