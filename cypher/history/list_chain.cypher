// One page of the tenant's chain in revision order: the events after $after up to the head
// the check read first ($head), with the fields the hash covers. Events a concurrent write
// commits after that head are not read.
MATCH (e:Event {tenant: $tenant})
WHERE $after < e.revision <= $head
WITH e ORDER BY e.revision
LIMIT $limit
RETURN collect({
  revision: e.revision, op: e.op, at_text: e.at_text, payload_json: e.payload_json,
  prev_hash: e.prev_hash, hash: e.hash, hash_scheme: e.hash_scheme, key_id: e.key_id
}) AS events
