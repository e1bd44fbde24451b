// Bench setup only: a batch of memories as save_memory leaves them once indexed (content,
// full-text field), bulk, so a tenant of 10^6 nodes loads in minutes.
UNWIND $memories AS row
CREATE (:Memory {
  tenant: $tenant, id: row.id, project: row.project, type: 'discovery', title: row.title,
  content: row.content, lexical: row.lexical, status: 'active', version: 1, topic_version: 1,
  tags: [], files: [], created_at: datetime($now), updated_at: datetime($now),
  active_from: datetime($now), access_count: 0, quarantine_reasons: [], redactions: []
})
RETURN count(*) AS created
