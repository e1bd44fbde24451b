// Append one event to the tenant's history and advance the chain head to it. A keyed event
// names its scheme and the id of the key (never the key). Each subject id gets an
// EventSubject, so list_events finds what touched a subject by index; a history begun
// before these existed notes the first revision that has them.
MATCH (h:History {tenant: $tenant})
CREATE (e:Event {
  id: $event_id, tenant: $tenant, revision: $revision, op: $op, at: datetime($at), at_text: $at,
  aggregate_kind: $aggregate_kind, aggregate_id: $aggregate_id, subject_ids: $subject_ids,
  payload_json: $payload_json, session_id: $session_id, actor: $actor, client: $client,
  prev_hash: $prev_hash, hash: $hash, hash_scheme: $hash_scheme, key_id: $key_id
})
FOREACH (subject_id IN $subject_ids |
  CREATE (:EventSubject {tenant: $tenant, subject_id: subject_id, revision: $revision}))
SET h.revision = $revision, h.last_hash = $hash, h.last_at = $at, h.key_id = $key_id,
    h.subjects_indexed_from = coalesce(h.subjects_indexed_from, $revision)
RETURN e.revision AS revision, e.hash AS hash
