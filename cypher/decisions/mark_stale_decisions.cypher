// maintain: active decisions past review_after become stale. A seek on (tenant, status,
// review_after) reads only the tenant's active decisions that are due.
MATCH (d:Decision {tenant: $tenant, status: 'active'})
USING INDEX SEEK d:Decision(tenant, status, review_after)
WHERE d.review_after <= datetime($now)
WITH d ORDER BY d.review_after LIMIT $limit
SET d.status = 'stale', d.updated_at = datetime($now), d.status_reason = 'review_after passed'
RETURN d.id AS id
