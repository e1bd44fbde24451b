// Create the tenant's history head on its first write (unique per tenant). Its events are
// indexed by subject (EventSubject) from revision 1.
MERGE (h:History {tenant: $tenant})
  ON CREATE SET h.revision = 0, h.last_hash = $genesis_hash, h.created_at = datetime(),
                h.subjects_indexed_from = 1
