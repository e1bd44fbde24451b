// record_fact as one statement (history/write_path.py, write_at_head), for a key whose current
// fact this process recorded last ($expected_previous): claim the tenant's history head as this
// process saw it last, find the key's slot with that fact still current and no live decision
// watching the key (a watched key's write re-evaluates the decision: the managed write does, with
// facts/record_fact), record the fact as facts/record_fact does and append its event as
// history/append_events does. Another writer moved the head, the head is keyed with another
// history key (lock_head refuses it), the slot's current fact is another one, or a decision
// watches: no row, nothing written (the lock token is bookkeeping), and the caller runs the
// managed write. The watchers are found as facts/record_fact finds them.
MATCH (h:History {tenant: $tenant})
SET h.lock_token = $lock_token
WITH h
WHERE h.revision = $revision - 1 AND h.last_hash = $expected_hash
  AND (h.key_id IS NULL OR h.key_id = $key_id)  // else lock_head refuses: another key
MATCH (k:FactKey {tenant: $tenant, owner: $owner, key: $key})-[current:CURRENT]->(previous:Fact)
WHERE previous.id = $expected_previous
CALL (k) {
  CALL () {  // $subject's spellings, as subjects/list_group_spellings finds a name's
    OPTIONAL MATCH (:SubjectKey {tenant: $tenant, key: 'n:' + $subject})-[:KEYS]->(:Alias)
                   -[:OF]->(s:Subject)
    OPTIONAL MATCH (s)-[:MERGED_INTO*0..]->(root:Subject)
    WHERE NOT EXISTS { (root)-[:MERGED_INTO]->() }
    WITH collect(DISTINCT root) AS roots
    UNWIND CASE size(roots) WHEN 1 THEN roots ELSE [null] END AS root
    RETURN COLLECT {
      MATCH (root)<-[:MERGED_INTO*0..]-(:Subject)<-[:OF]-(a:Alias)
      RETURN DISTINCT a.normal ORDER BY a.normal <> $subject, a.normal LIMIT $spellings_limit
    } AS spellings
  }
  CALL (k, spellings) {
    RETURN k AS watched
    UNION
    MATCH (watched:FactKey)
    WHERE watched.tenant = $tenant AND watched.subject IN spellings
      AND watched.attribute = $attribute AND watched.owner = k.owner
    RETURN watched
  }
  OPTIONAL MATCH (watched)<-[:REOPEN_WHEN]-(:Alternative)<-[:HAS_ALTERNATIVE]-(d:Decision)
  WHERE d.status IN ['active', 'review_required', 'stale']
  RETURN collect(DISTINCT d.id) AS watching
}
WITH h, k, current, previous, watching
WHERE watching = []
SET k.updated_at = datetime($now), k.subject = $subject, k.attribute = $attribute
CREATE (f:Fact {
  id: $id, tenant: $tenant, slot_id: k.id, owner: $owner, project: $project,
  origin_id: $origin_id, key: $key, value_json: $value_json, status: 'active',
  source_class: $source_class, source_raw: $source_raw, confidence: $confidence,
  verification_status: $verification_status, contradiction_count: 0,
  observed_at: datetime($observed_at), valid_from: datetime($valid_from),
  valid_to: datetime($valid_to), expires_at: datetime($expires_at),
  effective_until: datetime($effective_until),
  recorded_at: datetime($now), created_at: datetime($now), updated_at: datetime($now),
  session_id: $session_id, actor: $actor, client: $client, schema_version: $schema_version
})
SET f += $value_projection, f.value_instant = datetime($value_instant)
CREATE (f)-[:OF_KEY]->(k)
CREATE (k)-[:CURRENT {since: datetime($now)}]->(f)
CREATE (f)-[:HAS_STATE]->(:FactState {
  tenant: $tenant, fact_id: $id, tx_from: datetime($now), status: 'active',
  valid_to: datetime($valid_to), expires_at: datetime($expires_at)
})
SET previous.status = 'superseded', previous.superseded_at = datetime($now),
    previous.updated_at = datetime($now)
CREATE (f)-[:SUPERSEDES {at: datetime($now)}]->(previous)
CREATE (k)-[:WAS_CURRENT {since: current.since, until: datetime($now)}]->(previous)
DELETE current
WITH h, f, previous
CALL (previous) {
  MATCH (previous)-[:HAS_STATE]->(open:FactState)
  WHERE open.tx_to IS NULL
  SET open.tx_to = datetime($now)
  CREATE (previous)-[:HAS_STATE]->(:FactState {
    tenant: $tenant, fact_id: previous.id, tx_from: datetime($now), status: 'superseded',
    valid_to: previous.valid_to, expires_at: previous.expires_at
  })
}
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
RETURN f AS fact, previous.id AS superseded_id, $revision AS revision
