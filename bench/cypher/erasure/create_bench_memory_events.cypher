// Bench setup only: each memory's save event, sealed and chained as the write path does, with
// its EventSubject, so an erasure finds and erases the payloads naming what it erases.
UNWIND $events AS row
CREATE (:Event {
  id: row.event_id, tenant: $tenant, revision: row.revision, op: 'save_memory',
  at: datetime(row.at), at_text: row.at, aggregate_kind: 'memory', aggregate_id: row.id,
  subject_ids: [row.id], payload_json: row.payload_json, payload_salt: row.payload_salt,
  payload_digest: row.payload_digest, prev_hash: row.prev_hash, hash: row.hash,
  hash_scheme: $hash_scheme, key_id: $key_id
})
CREATE (:EventSubject {tenant: $tenant, subject_id: row.id, revision: row.revision})
RETURN count(*) AS created
