// Append the events of one write transaction (every write of a group commit) to the tenant's
// history, in revision order, and advance the chain head to the last: one statement for the
// whole transaction. A keyed event names its scheme and key id; a sealed event's hash covers
// its payload's salted digest (history/chain.py); each subject id gets an EventSubject.
MATCH (h:History {tenant: $tenant})
UNWIND $events AS ev
CREATE (e:Event {
  id: ev.event_id, tenant: $tenant, revision: ev.revision, op: ev.op, at: datetime(ev.at),
  at_text: ev.at, aggregate_kind: ev.aggregate_kind, aggregate_id: ev.aggregate_id,
  subject_ids: ev.subject_ids, payload_json: ev.payload_json,
  payload_salt: ev.payload_salt, payload_digest: ev.payload_digest, session_id: ev.session_id,
  actor: ev.actor, client: ev.client, prev_hash: ev.prev_hash, hash: ev.hash,
  hash_scheme: ev.hash_scheme, key_id: ev.key_id
})
FOREACH (subject_id IN ev.subject_ids |
  CREATE (:EventSubject {tenant: $tenant, subject_id: subject_id, revision: ev.revision}))
WITH h, ev ORDER BY ev.revision
WITH h, collect(ev) AS appended
WITH h, appended[0] AS first, appended[-1] AS top
SET h.revision = top.revision, h.last_hash = top.hash, h.last_at = top.at,
    h.key_id = top.key_id, h.subjects_indexed_from = coalesce(h.subjects_indexed_from, first.revision)
RETURN top.revision AS revision
