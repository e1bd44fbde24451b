// Change a decision's lifecycle status.
MATCH (d:Decision {tenant: $tenant, id: $id})
SET d.status = $status, d.updated_at = datetime($now), d.status_reason = $reason
