// The ids of the decisions whose rules are evaluated (not superseded or reverted), in scope.
MATCH (d:Decision)
WHERE d.tenant = $tenant AND d.status IN ['active', 'review_required', 'stale']
  AND ($project IS NULL OR d.project = $project)
  AND ($decision_id IS NULL OR d.id = $decision_id)
RETURN d.id AS id ORDER BY id
