// audit_memory, key slots: the next batch of fact keys after the cursor (id order) plus the
// keys of open issues. Per key: the facts its CURRENT edges point at and its active facts (by
// index seek on the slot, not its whole history). Drift: more than one CURRENT, a CURRENT to
// a fact that is not active, or an active fact no CURRENT points at.
CALL () {
  MATCH (k:FactKey)
  USING INDEX SEEK k:FactKey(tenant, id)
  WHERE k.tenant = $tenant AND k.id > $after
  WITH k ORDER BY k.tenant, k.id LIMIT $limit
  RETURN k, true AS scanned
  UNION
  UNWIND $recheck AS ref
  MATCH (k:FactKey)
  USING INDEX SEEK k:FactKey(tenant, id)
  WHERE k.tenant = $tenant AND k.id = ref
  RETURN k, false AS scanned
}
// a subject both scanned and re-checked is one row
WITH k, true IN collect(scanned) AS scanned
WITH k, scanned, [(k)-[:CURRENT]->(f:Fact) | f {.id, .status}] AS currents,
     COLLECT {
       MATCH (a:Fact)
       WHERE a.tenant = $tenant AND a.slot_id = k.id AND a.status = 'active'
       RETURN a.id
     } AS actives
WITH k, scanned, currents, actives, [c IN currents | c.id] AS current_ids
WITH k, scanned, current_ids, actives,
     size(current_ids) > 1 OR any(c IN currents WHERE c.status <> 'active')
       OR any(a IN actives WHERE NOT a IN current_ids) AS drift
RETURN
  collect(CASE WHEN drift THEN {
    ref: k.id, key: k.key, owner: k.owner, current_ids: current_ids, active_ids: actives
  } END) AS drifted,
  count(CASE WHEN scanned THEN 1 END) AS scanned,
  max(CASE WHEN scanned THEN k.id END) AS last
