// Test fixture: overwrite fields of a chunk (e.g. a quarantine released by govern_memory).
MATCH (c:Chunk {tenant: $tenant, id: $id})
SET c += $fields
RETURN c.id AS id
