// audit_memory, quarantined content: quarantined chunks after the cursor (id order) plus the
// chunks of open issues (a chunk released since is no longer quarantined: resolved).
CALL () {
  MATCH (c:Chunk)
  USING INDEX SEEK c:Chunk(tenant, quarantined, id)
  WHERE c.tenant = $tenant AND c.quarantined = true AND c.id > $after
  WITH c ORDER BY c.tenant, c.quarantined, c.id LIMIT $limit
  RETURN c, true AS scanned
  UNION
  UNWIND $recheck AS ref
  MATCH (c:Chunk {id: ref})
  WHERE c.tenant = $tenant
  RETURN c, false AS scanned
}
// a subject both scanned and re-checked is one row
WITH c, true IN collect(scanned) AS scanned
RETURN
  collect(CASE WHEN c.quarantined = true THEN {
    ref: c.id, project: c.project, state: c.state, reasons: c.quarantine_reasons
  } END) AS quarantined,
  count(CASE WHEN scanned THEN 1 END) AS scanned,
  max(CASE WHEN scanned THEN c.id END) AS last
