// audit_memory repair of drifted key slots: the newest active fact (recorded_at, then id) is
// the one CURRENT fact; every other CURRENT edge becomes WAS_CURRENT {since, until}; every
// other active fact becomes superseded by it (SUPERSEDES link). A slot without an active fact
// keeps no CURRENT edge. The caller snapshots the superseded facts' states.
UNWIND $key_ids AS key_id
MATCH (k:FactKey)
USING INDEX SEEK k:FactKey(tenant, id)
WHERE k.tenant = $tenant AND k.id = key_id
CALL (k) {
  MATCH (a:Fact)
  WHERE a.tenant = $tenant AND a.slot_id = k.id AND a.status = 'active'
  WITH a ORDER BY a.recorded_at DESC, a.id DESC
  RETURN collect(a) AS actives
}
WITH k, actives, actives[0] AS winner
CALL (k, winner) {
  MATCH (k)-[c:CURRENT]->(other:Fact)
  WITH k, c, other, c.since AS since, winner IS NOT NULL AND other = winner AS keep
  FOREACH (_ IN CASE WHEN keep THEN [] ELSE [1] END |
    CREATE (k)-[:WAS_CURRENT {since: since, until: datetime($now)}]->(other)
  )
  DELETE c
  RETURN min(CASE WHEN keep THEN since END) AS kept_since,
         collect(DISTINCT CASE WHEN NOT keep THEN other.id END) AS released
}
FOREACH (_ IN CASE WHEN winner IS NULL THEN [] ELSE [1] END |
  CREATE (k)-[:CURRENT {since: coalesce(kept_since, datetime($now))}]->(winner)
)
WITH k, winner, actives, released
CALL (winner, actives) {
  UNWIND CASE WHEN winner IS NULL THEN [] ELSE actives[1..] END AS old
  SET old.status = 'superseded', old.superseded_at = datetime($now),
      old.updated_at = datetime($now)
  CREATE (winner)-[:SUPERSEDES {at: datetime($now), effective_at: datetime($now),
                                rationale: 'audit_memory: key slot repaired'}]->(old)
  RETURN collect(old.id) AS superseded
}
RETURN k.id AS key_id, winner.id AS winner_id, superseded, released
