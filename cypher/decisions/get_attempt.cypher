// One attempt by id.
MATCH (a:Attempt {tenant: $tenant, id: $id})
RETURN a AS attempt
