// The fields the hash chain covers, for every event of the tenant in revision order.
MATCH (e:Event {tenant: $tenant})
WHERE e.revision >= 1
WITH e ORDER BY e.revision
LIMIT $limit
RETURN e.revision AS revision, e.op AS op, e.at_text AS at_text,
       e.payload_json AS payload_json, e.prev_hash AS prev_hash, e.hash AS hash
