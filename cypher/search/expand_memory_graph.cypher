// search, graph channel: memories near the best hits — saved in the same session, another
// visible version of the same topic, or about a linked fact (the current fact of the key the
// topic names CONTRADICTS or IMPACTS another fact, whose key another memory's topic names) —
// each with the seed it was reached from and its distance in steps.
UNWIND $seeds AS seed
MATCH (m:Memory {tenant: $tenant, id: seed})
CALL (m) {
  MATCH (m)-[:IN_SESSION]->(:Session)<-[:IN_SESSION]-(n:Memory)
  RETURN n, 1 AS distance
  UNION
  MATCH (m)-[:SUPERSEDES]-(n:Memory)
  RETURN n, 1 AS distance
  UNION
  MATCH (k:FactKey {tenant: $tenant, owner: 'project:' + m.project, key: m.topic_key})
  MATCH (k)-[:CURRENT]->(:Fact)-[:CONTRADICTS|IMPACTS]-(:Fact)-[:OF_KEY]->(other:FactKey)
  WITH m, other WHERE other.tenant = $tenant AND other.project = m.project
  MATCH (n:Memory)
  USING INDEX n:Memory(tenant, topic_key, project, topic_version)
  WHERE n.tenant = $tenant AND n.topic_key = other.key AND n.project = m.project
    AND n.topic_version IS NOT NULL
  RETURN n, 2 AS distance
}
WITH seed, n, distance
WHERE n.tenant = $tenant AND n.id <> seed AND n.status IN $statuses
  AND ($project IS NULL OR n.project = $project)
  AND ($type IS NULL OR n.type = $type)
  AND ($branch IS NULL OR n.branch IS NULL OR n.branch = $branch)
  AND (size($tags) = 0 OR any(tag IN n.tags WHERE tag IN $tags))
WITH seed, n, min(distance) AS distance ORDER BY n.updated_at DESC
WITH seed, collect({id: n.id, type: n.type, distance: distance})[..$per_seed] AS near
UNWIND near AS hit
RETURN seed, hit.id AS id, hit.type AS type, hit.distance AS distance
