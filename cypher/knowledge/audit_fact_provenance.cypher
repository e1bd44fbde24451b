// audit_memory, facts made from claims: the next batch after the cursor (claim_id order) plus
// the facts of open issues. fact_missing_provenance: claim_id set but no claim PROMOTED_TO it
// (claim_found: a claim with that id exists here, so the link can be restored).
CALL () {
  MATCH (f:Fact)
  USING INDEX SEEK f:Fact(tenant, claim_id)
  WHERE f.tenant = $tenant AND f.claim_id > $after
  WITH f ORDER BY f.tenant, f.claim_id, f.id LIMIT $limit
  RETURN f, true AS scanned
  UNION
  UNWIND $recheck AS ref
  MATCH (f:Fact {id: ref})
  WHERE f.tenant = $tenant
  RETURN f, false AS scanned
}
// a subject both scanned and re-checked is one row
WITH f, true IN collect(scanned) AS scanned
WITH f, scanned,
     f.claim_id IS NOT NULL AND NOT EXISTS { (:Claim)-[:PROMOTED_TO]->(f) } AS unlinked
RETURN
  collect(CASE WHEN unlinked THEN {
    ref: f.id, claim_id: f.claim_id, status: f.status,
    claim_found: EXISTS { MATCH (c:Claim {id: f.claim_id}) WHERE c.tenant = $tenant }
  } END) AS missing,
  count(CASE WHEN scanned THEN 1 END) AS scanned,
  max(CASE WHEN scanned THEN f.claim_id END) AS last
