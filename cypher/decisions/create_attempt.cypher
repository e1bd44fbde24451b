// Something tried for a decision or a workstream; the subject must exist in the tenant.
OPTIONAL MATCH (d:Decision {tenant: $tenant, id: $decision_id})
OPTIONAL MATCH (w:Workstream {tenant: $tenant, id: $workstream_id})
WITH coalesce(d, w) AS subject
WHERE subject IS NOT NULL
CREATE (subject)-[:HAS_ATTEMPT]->(a:Attempt {
  id: $id, tenant: $tenant, decision_id: $decision_id, workstream_id: $workstream_id,
  title: $title, description: $description, evidence: $evidence, status: 'open',
  result: null, created_at: datetime($now), updated_at: datetime($now),
  session_id: $session_id, actor: $actor, client: $client
})
RETURN a AS attempt
