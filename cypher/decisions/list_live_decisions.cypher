// The decisions whose rules are evaluated (not superseded or reverted), in scope.
MATCH (d:Decision)
WHERE d.tenant = $tenant AND d.status IN ['active', 'review_required', 'stale']
  AND ($project IS NULL OR d.project = $project)
  AND ($decision_id IS NULL OR d.id = $decision_id)
RETURN d.id AS id, d.project AS project, d.title AS title, d.status AS status,
       d.review_after AS review_after
ORDER BY id
