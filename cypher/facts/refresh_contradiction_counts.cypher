// Refresh the open-contradiction counts of these facts and of the facts they are linked
// with (govern_fact after a change; audit_memory's repair). A count is the open (not
// cleared) CONTRADICTS links whose other end is live (active, not lapsed): the definition
// promotion uses too. Only counts that differ are written; their facts are returned.
UNWIND $ids AS fact_id
MATCH (f:Fact {tenant: $tenant, id: fact_id})
UNWIND [f] + [(f)-[:CONTRADICTS]-(linked:Fact) | linked] AS side
WITH DISTINCT side
WITH side, COUNT {
  (side)-[c:CONTRADICTS]-(other:Fact)
  WHERE c.cleared_at IS NULL AND other.status = 'active'
    AND coalesce(other.effective_until > datetime($now), true)
} AS expected
WHERE side.contradiction_count IS NULL OR side.contradiction_count <> expected
SET side.contradiction_count = expected
RETURN side.id AS id, expected
