// Move the tenant's checkpoint forward to a head a full verification found whole (never back).
// Bookkeeping on the head node, not history: no revision, no event.
MATCH (h:History {tenant: $tenant})
WHERE coalesce(h.checkpoint_revision, 0) < $revision AND h.revision >= $revision
SET h.checkpoint_revision = $revision, h.checkpoint_hash = $hash,
    h.checkpoint_keyed_from = $keyed_from, h.checkpoint_mac = $mac, h.checkpoint_key_id = $key_id,
    h.checkpoint_at = $now
