// Take the tenant's history lock and read the chain head. Every write transaction runs this
// first, so a tenant's writes are serialised and its revisions stay gap-free. Setting the
// lock token is what takes the write lock (Neo4j skips a SET that changes nothing); it is
// internal bookkeeping, not data: an idempotent retry still records no fact and no event.
MERGE (h:History {tenant: $tenant})
  ON CREATE SET h.revision = 0, h.last_hash = $genesis_hash, h.created_at = datetime()
SET h.lock_token = $lock_token
RETURN h.revision AS revision, h.last_hash AS last_hash
