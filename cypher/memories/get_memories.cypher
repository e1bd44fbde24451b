// get_observations and govern_memory: memories by id (the caller's tenant only).
UNWIND $ids AS id
MATCH (m:Memory {tenant: $tenant, id: id})
RETURN m AS memory
