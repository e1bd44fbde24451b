// update_workstream: the workstream to change, by id within the tenant.
MATCH (w:Workstream {tenant: $tenant, id: $id})
RETURN w AS workstream
