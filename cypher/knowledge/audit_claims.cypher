// audit_memory, claims: the next batch after the cursor (id order) plus the claims of open
// issues. claim_missing_evidence: no EVIDENCED_BY to a chunk; promoted_claim_missing_fact:
// status promoted but no PROMOTED_TO a fact (fact_found: its fact_id names a fact here).
CALL () {
  MATCH (c:Claim)
  USING INDEX SEEK c:Claim(tenant, id)
  WHERE c.tenant = $tenant AND c.id > $after
  WITH c ORDER BY c.tenant, c.id LIMIT $limit
  RETURN c, true AS scanned
  UNION
  UNWIND $recheck AS ref
  MATCH (c:Claim {id: ref})
  WHERE c.tenant = $tenant
  RETURN c, false AS scanned
}
// a subject both scanned and re-checked is one row
WITH c, true IN collect(scanned) AS scanned
WITH c, scanned,
     NOT EXISTS { (c)-[:EVIDENCED_BY]->(:Chunk) } AS no_evidence,
     c.status = 'promoted' AND NOT EXISTS { (c)-[:PROMOTED_TO]->(:Fact) } AS no_fact
RETURN
  collect(CASE WHEN no_evidence THEN {ref: c.id, status: c.status, chunk_id: c.chunk_id} END)
    AS missing_evidence,
  collect(CASE WHEN no_fact THEN {
    ref: c.id, fact_id: c.fact_id,
    fact_found: EXISTS { MATCH (f:Fact {id: c.fact_id}) WHERE f.tenant = $tenant }
  } END) AS missing_fact,
  count(CASE WHEN scanned THEN 1 END) AS scanned,
  max(CASE WHEN scanned THEN c.id END) AS last
