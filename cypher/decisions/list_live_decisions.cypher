// The decisions whose rules are evaluated (not superseded or reverted), in scope, as one row.
MATCH (d:Decision)
WHERE d.tenant = $tenant AND d.status IN ['active', 'review_required', 'stale']
  AND ($project IS NULL OR d.project = $project)
  AND ($decision_id IS NULL OR d.id = $decision_id)
WITH d ORDER BY d.id
RETURN collect({
  id: d.id, project: d.project, title: d.title, status: d.status,
  review_after: toString(d.review_after)
}) AS decisions
