// A key's facts as known at transaction time $known_at, per owner and per key that names the
// same subject under the same attribute ($spellings of its subject): each fact recorded by then
// with its state then (FactState) and the links that existed then (other_live: the other end
// was active and not lapsed at $known_at).
CALL () {
  MATCH (k:FactKey {tenant: $tenant, key: $key})
  RETURN k
  UNION
  MATCH (k:FactKey)
  WHERE k.tenant = $tenant AND k.subject IN $spellings AND k.attribute = $attribute
  RETURN k
}
WITH k WHERE $owner IS NULL OR k.owner = $owner
WITH k ORDER BY k.key <> $key, k.owner, k.key LIMIT $owner_limit  // the asked key first
CALL (k) {
  MATCH (f:Fact)
  USING INDEX f:Fact(tenant, slot_id, recorded_at)
  WHERE f.tenant = $tenant AND f.slot_id = k.id AND f.recorded_at <= datetime($known_at)
  MATCH (f)-[:HAS_STATE]->(s:FactState)
  WHERE s.tx_from <= datetime($known_at) AND (s.tx_to IS NULL OR s.tx_to > datetime($known_at))
  CALL (f) {
    OPTIONAL MATCH (f)-[e:SUPERSEDES|CONTRADICTS]-(other:Fact)
    WHERE e.at <= datetime($known_at)
      AND (e.cleared_at IS NULL OR e.cleared_at > datetime($known_at))
    OPTIONAL MATCH (other)-[:HAS_STATE]->(os:FactState)
    WHERE os.tx_from <= datetime($known_at)
      AND (os.tx_to IS NULL OR os.tx_to > datetime($known_at))
    WITH e, os,
         CASE WHEN os.valid_to IS NULL THEN os.expires_at
              WHEN os.expires_at IS NULL OR os.valid_to < os.expires_at THEN os.valid_to
              ELSE os.expires_at END AS other_until
    RETURN collect(CASE WHEN e IS NULL THEN null ELSE {
      type: type(e), from_id: startNode(e).id, to_id: endNode(e).id, at: e.at,
      rationale: e.rationale,
      other_live: os.status = 'active'
                  AND (other_until IS NULL OR other_until > datetime($known_at))
    } END) AS edges
  }
  RETURN collect({fact: f, state: s, edges: edges}) AS facts
}
RETURN k.owner AS owner, k.key AS key, k.project AS project, k.origin_id AS origin_id, facts
