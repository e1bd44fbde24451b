// govern_fact: refresh the open-contradiction counts of the changed facts and of the facts
// they are linked with. A count is the open (not cleared) CONTRADICTS links whose other end
// is live (active, not lapsed): the same definition promotion and audit_memory use.
UNWIND $ids AS fact_id
MATCH (f:Fact {tenant: $tenant, id: fact_id})
UNWIND [f] + [(f)-[:CONTRADICTS]-(linked:Fact) | linked] AS side
WITH DISTINCT side
SET side.contradiction_count = COUNT {
  (side)-[c:CONTRADICTS]-(other:Fact)
  WHERE c.cleared_at IS NULL AND other.status = 'active'
    AND coalesce(other.effective_until > datetime($now), true)
}
RETURN count(side) AS refreshed
