// Record a new active fact in its key slot (tenant, owner, key). MERGE on the slot takes its
// lock, so concurrent writers queue and exactly one fact stays CURRENT. The previous current
// fact becomes history: status 'superseded', linked by SUPERSEDES, its stint as current kept
// as WAS_CURRENT {since, until}. Each fact's transaction-time states are FactState nodes.
// value_projection: typed views of the value that reopen rules compare (graphmem/decisions/reopen_rules.py).
// watching: the live decisions with a reopen rule on this key, or on a key of the owner that
// names the same subject under the same attribute ($subject's spellings, found here as
// subjects/list_group_spellings finds them: one subject under two names is one truth,
// graphmem/subjects/spellings.py), which the write re-evaluates (found here rather than by
// decisions/list_decisions_watching_facts and list_group_spellings: two round trips less).
MERGE (k:FactKey {tenant: $tenant, owner: $owner, key: $key})
  ON CREATE SET k.id = $new_slot_id, k.project = $project, k.origin_id = $origin_id,
                k.created_at = datetime($now)
SET k.updated_at = datetime($now), k.subject = $subject, k.attribute = $attribute
WITH k
OPTIONAL MATCH (k)-[current:CURRENT]->(previous:Fact)
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
FOREACH (old IN CASE WHEN previous IS NULL THEN [] ELSE [previous] END |
  SET old.status = 'superseded', old.superseded_at = datetime($now),
      old.updated_at = datetime($now)
  CREATE (f)-[:SUPERSEDES {at: datetime($now)}]->(old)
  CREATE (k)-[:WAS_CURRENT {since: current.since, until: datetime($now)}]->(old)
)
DELETE current
WITH f, previous, k
CALL (previous) {
  MATCH (previous)-[:HAS_STATE]->(open:FactState)
  WHERE open.tx_to IS NULL
  SET open.tx_to = datetime($now)
  CREATE (previous)-[:HAS_STATE]->(:FactState {
    tenant: $tenant, fact_id: previous.id, tx_from: datetime($now), status: 'superseded',
    valid_to: previous.valid_to, expires_at: previous.expires_at
  })
}
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
RETURN f AS fact, previous.id AS superseded_id, watching
