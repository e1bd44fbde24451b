// Which of these references are fact ids of the tenant (the rest name keys).
UNWIND $refs AS ref
MATCH (f:Fact {tenant: $tenant, id: ref})
RETURN f.id AS id
