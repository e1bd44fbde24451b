// The tenant's chain head and, bounded by it, the fields the hash chain covers for each event
// in revision order, so events a concurrent write commits after the head was read are not
// counted. Neo4j reads without a snapshot: a write committing meanwhile can show its head
// before its event, which verify_chain re-reads rather than reports.
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
