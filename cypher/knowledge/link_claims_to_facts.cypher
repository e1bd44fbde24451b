// audit_memory repair (fact provenance): re-create the PROMOTED_TO edge of each pair (claim,
// fact) that lacks it, both in the tenant. reused: the fact was made from another claim.
UNWIND $pairs AS pair
MATCH (c:Claim {id: pair.claim_id})
WHERE c.tenant = $tenant
MATCH (f:Fact {id: pair.fact_id})
WHERE f.tenant = $tenant
WITH c, f, pair, NOT EXISTS { (c)-[:PROMOTED_TO]->(f) } AS missing
CALL (c, f, missing) {
  WITH c, f WHERE missing
  CREATE (c)-[:PROMOTED_TO {at: coalesce(c.promoted_at, datetime($now)),
                            mode: c.validation_mode, reused: f.claim_id <> c.id,
                            repaired_at: datetime($now)}]->(f)
  RETURN count(*) AS created
}
RETURN pair.claim_id AS claim_id, pair.fact_id AS fact_id, created > 0 AS created
