// Create a decision (alternatives, rules and dependencies are linked by their own queries).
CREATE (d:Decision {
  id: $id, tenant: $tenant, project: $project, title: $title, choice: $choice,
  rationale: $rationale, status: 'active', review_after: datetime($review_after),
  created_at: datetime($now), updated_at: datetime($now),
  session_id: $session_id, actor: $actor, client: $client
})
RETURN d.id AS id
