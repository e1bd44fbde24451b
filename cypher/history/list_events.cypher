// The tenant's history events after a revision, oldest first.
MATCH (e:Event {tenant: $tenant})
WHERE e.revision > $after_revision
RETURN e.revision AS revision, e.op AS op, e.at AS at, e.subject_ids AS subject_ids,
       e.at_text AS at_text, e.payload_json AS payload_json,
       e.prev_hash AS prev_hash, e.hash AS hash
ORDER BY e.revision
LIMIT $limit
