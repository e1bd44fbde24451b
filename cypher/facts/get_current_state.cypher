// Resolve a fact key, per project, to its CURRENT fact and its most recent history
// (each former fact with the id of the fact that superseded it).
MATCH (k:FactKey {tenant: $tenant, key: $key})
WHERE $project IS NULL OR k.project = $project
OPTIONAL MATCH (k)-[:CURRENT]->(answer:Fact)
CALL (k) {
  OPTIONAL MATCH (old:Fact)-[:OF_KEY]->(k)
  WHERE old.status <> 'active'
  WITH old ORDER BY old.recorded_at DESC LIMIT $history_limit
  OPTIONAL MATCH (newer:Fact {tenant: $tenant})-[:SUPERSEDES]->(old)
  RETURN collect(CASE WHEN old IS NULL THEN null
                      ELSE {fact: old, superseded_by: newer.id} END) AS history
}
RETURN k.project AS project, answer, history
ORDER BY project
LIMIT $project_limit
