// Bench setup only: a batch of active memories in one project, with the lexical tokens and
// vectors the product computes (bulk, so 10^5 memories load in minutes, not hours).
UNWIND $memories AS row
CREATE (m:Memory {
  tenant: $tenant, id: row.id, project: $project, type: row.type, title: row.title,
  content: row.content, topic_key: null, topic_version: 1, branch: null, tags: [],
  files: [], status: 'active', version: 1, created_at: datetime(row.at),
  updated_at: datetime(row.at), active_from: datetime(row.at), session_id: null,
  quarantine_reasons: [], redactions: [], access_count: 0, lexical: row.lexical
})
SET m.embedding = row.embedding
RETURN count(m) AS created
