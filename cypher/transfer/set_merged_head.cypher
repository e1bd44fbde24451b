// graphmem import --merge: the tenant's head moves to the last appended event (re-chained after
// its own); its checkpoint still covers its own prefix and stays. The transaction time floor
// is the later of its own last write and the file's. The file's anchor is kept.
MATCH (h:History {tenant: $tenant})
SET h.revision = $revision, h.last_hash = $hash, h.key_id = $key_id,
    h.last_at = CASE WHEN h.last_at IS NULL OR h.last_at < $last_at THEN $last_at
                     ELSE h.last_at END,
    h.imported_from_revision = $source_revision, h.imported_from_hash = $source_hash,
    h.imported_at = datetime($now)
RETURN h.revision AS revision
