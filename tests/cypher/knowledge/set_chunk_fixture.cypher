// Test fixture: force a chunk's state, materiality and quarantine flag (what assess_context
// and the poisoning gate would set).
MATCH (k:Chunk {tenant: $tenant, id: $id})
SET k.state = $state, k.materiality = $materiality, k.quarantined = $quarantined
RETURN k.id AS id
