// A workstream by id within the tenant (update_workstream; chunks that name one).
MATCH (w:Workstream {tenant: $tenant, id: $id})
RETURN w AS workstream
