// save_memory of a new memory without a topic, as one statement (history/write_path.py,
// write_at_head): claim the tenant's history head as this process last saw it, create the
// memory as memories/create_memory does, and append its event as history/append_events does.
// Another writer moved the head: no row, nothing written (the lock token is bookkeeping).
MATCH (h:History {tenant: $tenant})
SET h.lock_token = $lock_token
WITH h
WHERE h.revision = $revision - 1 AND h.last_hash = $expected_hash
  AND (h.key_id IS NULL OR h.key_id = $key_id)  // else lock_head refuses: another key
CREATE (m:Memory:Unindexed:Unread {
  tenant: $tenant, id: $id, project: $project, type: $type, title: $title, content: $content,
  topic_key: $topic_key, topic_version: $topic_version, branch: $branch, tags: $tags,
  files: $files, status: $status, version: 1, created_at: datetime($now),
  updated_at: datetime($now), session_id: $session_id, quarantine_reasons: $quarantine_reasons,
  redactions: $redactions, access_count: 0, revision: $revision, about: $about
})
SET m.active_from = CASE WHEN $status = 'active' THEN datetime($now) END
CREATE (e:Event {
  id: $event_id, tenant: $tenant, revision: $revision, op: $op, at: datetime($at), at_text: $at,
  aggregate_kind: $aggregate_kind, aggregate_id: $aggregate_id, subject_ids: $subject_ids,
  payload_json: $payload_json,
  payload_salt: $payload_salt, payload_digest: $payload_digest, session_id: $session_id, actor: $actor, client: $client,
  prev_hash: $prev_hash, hash: $hash, hash_scheme: $hash_scheme, key_id: $key_id
})
FOREACH (subject_id IN $subject_ids |
  CREATE (:EventSubject {tenant: $tenant, subject_id: subject_id, revision: $revision}))
SET h.revision = $revision, h.last_hash = $hash, h.last_at = $at, h.key_id = $key_id,
    h.subjects_indexed_from = coalesce(h.subjects_indexed_from, $revision)
WITH m
OPTIONAL MATCH (s:Session {tenant: $tenant, id: $session_id})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (m)-[:IN_SESSION]->(s))
RETURN m AS memory
