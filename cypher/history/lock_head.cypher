// Take the tenant's history lock and read the chain head. Every write transaction runs this
// first, so a tenant's writes are serialised and its revisions stay gap-free.
MERGE (h:History {tenant: $tenant})
  ON CREATE SET h.revision = 0, h.last_hash = $genesis_hash, h.created_at = datetime()
SET h.locked_at = datetime()
RETURN h.revision AS revision, h.last_hash AS last_hash
