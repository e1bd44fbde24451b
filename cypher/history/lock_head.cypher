// Take the tenant's history lock and read the chain head. Every write transaction runs this
// first, so a tenant's writes are serialised and its revisions stay gap-free. The SET takes
// the exclusive lock directly (a MATCH takes none, so no shared-to-exclusive upgrade can
// deadlock); Neo4j skips a SET that changes nothing, hence a fresh token. The token is
// bookkeeping, not data: an idempotent retry still records no fact and no event. last_at is
// the transaction time of the tenant's last event, which the next one never precedes; key_id
// names the key it was chained with (writes with another key are refused).
MATCH (h:History {tenant: $tenant})
SET h.lock_token = $lock_token
RETURN h.revision AS revision, h.last_hash AS last_hash, h.last_at AS last_at,
       h.key_id AS key_id
