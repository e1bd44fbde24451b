// queue_clarification: store the AWAITING_HUMAN block and the source_hash it was written for
// (assess_context skips an awaiting_human chunk whose source_hash is still that one), and the
// chunk's state (awaiting_human where the move is legal, else unchanged).
MATCH (c:Chunk {tenant: $tenant, id: $chunk_id})
SET c.state = $state, c.awaiting_human_block = $block,
    c.awaiting_source_hash = c.source_hash, c.awaiting_at = datetime($now),
    c.updated_at = datetime($now)
RETURN c AS chunk
