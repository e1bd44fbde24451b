// Record a new active fact under (project, key). MERGE on the key slot takes its lock, so
// concurrent writers queue and exactly one fact stays CURRENT; the previous one is kept as
// history, status 'superseded', linked by SUPERSEDES.
MERGE (k:FactKey {tenant: $tenant, project: $project, key: $key})
  ON CREATE SET k.id = $key_id, k.created_at = datetime($now)
SET k.updated_at = datetime($now)
WITH k
OPTIONAL MATCH (k)-[current:CURRENT]->(previous:Fact)
CREATE (f:Fact {
  id: $id, tenant: $tenant, project: $project, key: $key,
  value_json: $value_json, status: 'active',
  source_class: $source_class, source_raw: $source_raw, confidence: $confidence,
  verification_status: 'unverified',
  observed_at: datetime($observed_at), valid_from: datetime($valid_from),
  valid_to: datetime($valid_to),
  recorded_at: datetime($now), created_at: datetime($now), updated_at: datetime($now),
  session_id: $session_id, actor: $actor, client: $client,
  schema_version: $schema_version
})
CREATE (f)-[:OF_KEY]->(k)
CREATE (k)-[:CURRENT]->(f)
FOREACH (old IN CASE WHEN previous IS NULL THEN [] ELSE [previous] END |
  SET old.status = 'superseded', old.superseded_at = datetime($now),
      old.updated_at = datetime($now)
  CREATE (f)-[:SUPERSEDES]->(old)
)
DELETE current
RETURN f AS fact, previous.id AS superseded_id
