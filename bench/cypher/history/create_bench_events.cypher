// Bench setup only: a batch of keyed, chained events for one tenant (bulk, so 10^6 events
// load in minutes), sealed and hashed by the bench exactly as the write path does.
UNWIND $events AS row
CREATE (:Event {
  id: row.id, tenant: $tenant, revision: row.revision, op: 'bench', at: datetime(row.at),
  at_text: row.at, aggregate_kind: 'bench', aggregate_id: row.id, subject_ids: [row.id],
  payload_json: row.payload_json, payload_salt: row.payload_salt,
  payload_digest: row.payload_digest, session_id: null, actor: null, client: null,
  prev_hash: row.prev_hash, hash: row.hash, hash_scheme: $hash_scheme, key_id: $key_id
})
RETURN count(*) AS created
