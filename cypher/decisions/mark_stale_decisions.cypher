// maintain: active decisions past review_after become stale. The planner would scan the
// sparse review_after index; a seek reads only the tenant's decisions that are due.
MATCH (d:Decision {tenant: $tenant})
USING INDEX SEEK d:Decision(tenant, review_after)
WHERE d.review_after <= datetime($now) AND d.status = 'active'
WITH d ORDER BY d.review_after LIMIT $limit
SET d.status = 'stale', d.updated_at = datetime($now), d.status_reason = 'review_after passed'
RETURN d.id AS id
