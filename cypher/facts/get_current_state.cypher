// Resolve a key, per owner, to its CURRENT fact and its newest former facts, each with its
// live SUPERSEDES / CONTRADICTS links (other_live: the other end is active and not lapsed).
MATCH (k:FactKey {tenant: $tenant, key: $key})
WHERE $owner IS NULL OR k.owner = $owner
WITH k ORDER BY k.owner LIMIT $owner_limit
OPTIONAL MATCH (k)-[:CURRENT]->(answer:Fact)
CALL (answer) {
  OPTIONAL MATCH (answer)-[e:SUPERSEDES|CONTRADICTS]-(other:Fact)
  WHERE e.cleared_at IS NULL
  RETURN collect(CASE WHEN e IS NULL THEN null ELSE {
    type: type(e), from_id: startNode(e).id, to_id: endNode(e).id, at: e.at,
    rationale: e.rationale,
    other_live: other.status = 'active'
                AND (other.effective_until IS NULL OR other.effective_until > datetime($now))
  } END) AS answer_edges
}
CALL (k, answer) {
  MATCH (old:Fact)
  USING INDEX old:Fact(tenant, slot_id, recorded_at)
  WHERE old.tenant = $tenant AND old.slot_id = k.id AND old.recorded_at IS NOT NULL
    AND (answer IS NULL OR old.id <> answer.id)
  WITH old ORDER BY old.recorded_at DESC LIMIT $history_limit
  CALL (old) {
    OPTIONAL MATCH (old)-[e:SUPERSEDES|CONTRADICTS]-(other:Fact)
    WHERE e.cleared_at IS NULL
    RETURN collect(CASE WHEN e IS NULL THEN null ELSE {
      type: type(e), from_id: startNode(e).id, to_id: endNode(e).id, at: e.at,
      rationale: e.rationale
    } END) AS edges
  }
  RETURN collect({fact: old, edges: edges}) AS history
}
RETURN k.owner AS owner, k.project AS project, k.origin_id AS origin_id,
       answer, answer_edges, history
