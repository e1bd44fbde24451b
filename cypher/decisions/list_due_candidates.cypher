// review_decisions, from state: the live decisions that may be due, in scope, by id. Those
// with an open or acknowledged review signal (fact writes and maintain keep signals in step)
// and those past review_after. Index seeks only, so the cost follows the due set, not the
// number of decisions.
CALL () {
  MATCH (s:ReviewSignal {tenant: $tenant}) USING INDEX SEEK s:ReviewSignal(tenant, status)
  WHERE s.status IN ['open', 'acknowledged']
  RETURN s.decision_id AS id
  UNION
  MATCH (d:Decision {tenant: $tenant}) USING INDEX SEEK d:Decision(tenant, status, review_after)
  WHERE d.status IN ['active', 'review_required', 'stale'] AND d.review_after <= datetime($now)
  RETURN d.id AS id
}
MATCH (d:Decision {tenant: $tenant, id: id})
WHERE d.status IN ['active', 'review_required', 'stale']
  AND ($project IS NULL OR d.project = $project)
WITH d ORDER BY d.id LIMIT $limit
RETURN d.id AS id, d.project AS project, d.title AS title, d.status AS status,
       toString(d.review_after) AS review_after
