// One chunk by id.
MATCH (c:Chunk {tenant: $tenant, id: $id})
RETURN c AS chunk
