// One attempt's status by id.
MATCH (a:Attempt {tenant: $tenant, id: $id})
RETURN a.status AS status
