// The tenant's chain head (revision 0 before its first write) and its checkpoint: the head a
// full verification found whole, MAC'd with the history key, where ordinary checks start.
OPTIONAL MATCH (h:History {tenant: $tenant})
RETURN coalesce(h.revision, 0) AS revision, h.last_hash AS last_hash,
       h.checkpoint_revision AS checkpoint_revision, h.checkpoint_hash AS checkpoint_hash,
       h.checkpoint_keyed_from AS keyed_from, h.checkpoint_mac AS checkpoint_mac,
       h.checkpoint_key_id AS checkpoint_key_id
