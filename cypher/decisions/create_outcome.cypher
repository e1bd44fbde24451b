// How an attempt ended: an Outcome node, and the attempt is closed with its result.
MATCH (a:Attempt {tenant: $tenant, id: $attempt_id})
SET a.status = 'ended', a.result = $result, a.updated_at = datetime($now)
CREATE (a)-[:HAS_OUTCOME]->(o:Outcome {
  id: $id, tenant: $tenant, attempt_id: a.id, result: $result, summary: $summary,
  lesson: $lesson, evidence: $evidence, recorded_at: datetime($now),
  session_id: $session_id, actor: $actor, client: $client
})
RETURN a AS attempt, o AS outcome
