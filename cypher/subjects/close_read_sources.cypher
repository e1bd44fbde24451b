// The sources a subjects pass read, closed after its records (create_subjects ... ): no longer
// Unread, unless the text changed since it was read (its stamp, a memory's version or a
// chunk's source hash, differs: the next pass reads it again; lock_read_sources locked them).
// The mentions a source read again held before (a chunk whose body an answer changed) went
// first (drop_stale_mentions).
UNWIND $read AS item
MATCH (n:Unread {tenant: $tenant, id: item.id})
WITH n, item, CASE WHEN n:Memory THEN coalesce(toString(n.version), '')
                   WHEN n:Chunk THEN coalesce(n.source_hash, '') ELSE '' END AS stamp
WHERE stamp = item.stamp
REMOVE n:Unread
