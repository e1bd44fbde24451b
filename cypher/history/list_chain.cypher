// One page of the tenant's chain in revision order: the events after $after up to the head
// the check read first ($head), with the fields the hash covers, a sealed event's salt and
// digest, and an erased event's seal. Events a concurrent write commits after that head are
// not read.
MATCH (e:Event {tenant: $tenant})
WHERE $after < e.revision <= $head
WITH e ORDER BY e.revision
LIMIT $limit
RETURN collect({
  revision: e.revision, op: e.op, at_text: e.at_text, payload_json: e.payload_json,
  prev_hash: e.prev_hash, hash: e.hash, hash_scheme: e.hash_scheme, key_id: e.key_id,
  payload_salt: e.payload_salt, payload_digest: e.payload_digest, erased_by: e.erased_by,
  erasure_seal: e.erasure_seal, seal_key_id: e.seal_key_id
}) AS events
