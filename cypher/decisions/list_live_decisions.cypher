// maintain: the next batch of decisions whose rules are evaluated (not superseded or
// reverted), in id order after a cursor.
MATCH (d:Decision)
WHERE d.tenant = $tenant AND d.id > $after AND d.status IN ['active', 'review_required', 'stale']
WITH d ORDER BY d.id LIMIT $limit
RETURN d.id AS id, d.project AS project, d.title AS title, d.status AS status,
       toString(d.review_after) AS review_after
