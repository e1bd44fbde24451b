// The tenant's chain head and, bounded by it, the fields the hash chain covers for each event
// in revision order: one consistent view, so events a concurrent write commits after the head
// was read are not counted (each write advances the head in the transaction that adds its
// events, so every event up to the head is there).
OPTIONAL MATCH (h:History {tenant: $tenant})
WITH coalesce(h.revision, 0) AS head_revision, h.last_hash AS last_hash
CALL (head_revision) {
  MATCH (e:Event {tenant: $tenant})
  WHERE 1 <= e.revision <= head_revision
  WITH e ORDER BY e.revision
  LIMIT $limit
  RETURN collect({
    revision: e.revision, op: e.op, at_text: e.at_text, payload_json: e.payload_json,
    prev_hash: e.prev_hash, hash: e.hash
  }) AS events
}
RETURN head_revision, last_hash, events
