// bench.scale: the tenant's chain head at the last bulk-loaded event, keyed like the events
// (bulk events carry no EventSubject: subject lookups of them take the older path).
MERGE (h:History {tenant: $tenant})
SET h.revision = $revision, h.last_hash = $hash, h.key_id = $key_id,
    h.created_at = coalesce(h.created_at, datetime()),
    h.subjects_indexed_from = $revision + 1
RETURN h.revision AS revision
