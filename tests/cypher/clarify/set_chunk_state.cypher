// Test fixture: force a chunk's lifecycle state (what assess_context would set).
MATCH (c:Chunk {tenant: $tenant, id: $id})
SET c.state = $state
RETURN c.id AS id
