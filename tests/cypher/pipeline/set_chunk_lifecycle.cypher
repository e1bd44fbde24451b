// Test fixture: force a chunk's lifecycle fields (what other tools would have set).
MATCH (k:Chunk {tenant: $tenant, id: $id})
SET k.state = $state, k.awaiting_source_hash = $awaiting_source_hash,
    k.source_hash = coalesce($source_hash, k.source_hash)
RETURN k.id AS id
