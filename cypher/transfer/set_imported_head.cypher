// graphmem import: the copy's head is its re-chained last event; the source's anchor is kept.
// Checkpoints were the source's (keyed with its key): the copy verifies afresh.
MATCH (h:History {tenant: $tenant})
SET h.revision = $revision, h.last_hash = $hash, h.key_id = $key_id,
    h.imported_from_revision = $source_revision, h.imported_from_hash = $source_hash,
    h.imported_at = datetime($now)
REMOVE h.checkpoint_revision, h.checkpoint_hash, h.checkpoint_keyed_from, h.checkpoint_mac,
       h.checkpoint_key_id, h.checkpoint_at, h.lock_token
RETURN h.revision AS revision
