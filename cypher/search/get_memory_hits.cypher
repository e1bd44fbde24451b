// search: the memories of one result page, each with the current fact of the key its topic
// names in its project (the facts side of the same state), if any.
UNWIND $ids AS id
MATCH (m:Memory {tenant: $tenant, id: id})
OPTIONAL MATCH (:FactKey {tenant: $tenant, owner: 'project:' + m.project, key: m.topic_key})
               -[:CURRENT]->(f:Fact)
RETURN m {
  .id, .project, .type, .title, .content, .topic_key, .topic_version, .branch, .tags, .status,
  .version, .superseded_by, .quarantine_reasons, updated_at: toString(m.updated_at)
} AS memory,
CASE WHEN f IS NULL THEN NULL ELSE {id: f.id, key: m.topic_key, value_json: f.value_json,
  status: f.status, recorded_at: toString(f.recorded_at)} END AS fact
