// Resolve a key, per owner and per key that names the same subject under the same attribute
// (the spellings of its $subject, found here: graphmem/subjects/spellings.py), to its CURRENT
// fact (whole, with its live SUPERSEDES / CONTRADICTS links; other_live: the other end is
// active and not lapsed) and a compact history: its newest former facts as projections, each
// with the live link to its successor.
// A slot made by a decision's rule before any fact was recorded has no facts (has_facts); one
// whose current fact was erased says so (current_erased).
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
CALL (spellings) {
  MATCH (k:FactKey {tenant: $tenant, key: $key})
  RETURN k
  UNION
  MATCH (k:FactKey)
  WHERE k.tenant = $tenant AND k.subject IN spellings AND k.attribute = $attribute
  RETURN k
}
WITH k WHERE $owner IS NULL OR k.owner = $owner
WITH k ORDER BY k.key <> $key, k.owner, k.key LIMIT $owner_limit  // the asked key first
OPTIONAL MATCH (k)-[:CURRENT]->(answer:Fact)
RETURN k.owner AS owner, k.key AS key, k.project AS project, k.origin_id AS origin_id, answer,
  answer IS NOT NULL OR EXISTS { (k)<-[:OF_KEY]-(:Fact) } AS has_facts,
  answer IS NULL AND EXISTS { (k)-[:CURRENT]->(:Erased) } AS current_erased,
  [(answer)-[e:SUPERSEDES|CONTRADICTS]-(other:Fact) WHERE e.cleared_at IS NULL | {
    type: type(e), from_id: startNode(e).id, to_id: endNode(e).id, at: e.at,
    rationale: e.rationale,
    other_live: other.status = 'active'
                AND coalesce(other.effective_until > datetime($now), true)
  }] AS answer_edges,
  COLLECT {
    MATCH (old:Fact)
    USING INDEX old:Fact(tenant, slot_id, recorded_at)
    WHERE old.tenant = $tenant AND old.slot_id = k.id AND old.recorded_at IS NOT NULL
      AND (answer IS NULL OR old.id <> answer.id)
    WITH old ORDER BY old.recorded_at DESC LIMIT $history_limit
    RETURN old {
      .id, .status, .value_json, .valid_from, .valid_to, .expires_at, .recorded_at,
      edges: [(newer:Fact)-[s:SUPERSEDES]->(old) WHERE s.cleared_at IS NULL | {
        type: 'SUPERSEDES', from_id: newer.id, to_id: old.id, at: s.at, rationale: s.rationale
      }]
    }
  } AS history
