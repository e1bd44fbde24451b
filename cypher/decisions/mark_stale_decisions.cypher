// maintain: active decisions past review_after become stale.
MATCH (d:Decision)
WHERE d.tenant = $tenant AND d.review_after <= datetime($now) AND d.status = 'active'
WITH d ORDER BY d.review_after LIMIT $limit
SET d.status = 'stale', d.updated_at = datetime($now), d.status_reason = 'review_after passed'
RETURN d.id AS id
