// audit_memory repair: reset contradiction_count to the open CONTRADICTS links (not cleared)
// to live facts (active and not lapsed); only facts whose count differs are written.
UNWIND $ids AS fact_id
MATCH (f:Fact {id: fact_id})
WHERE f.tenant = $tenant
WITH f, COUNT {
  (f)-[c:CONTRADICTS]-(y:Fact)
  WHERE c.cleared_at IS NULL AND y.status = 'active'
    AND coalesce(y.effective_until > datetime($now), true)
} AS expected
WHERE f.contradiction_count IS NULL OR f.contradiction_count <> expected
SET f.contradiction_count = expected
RETURN f.id AS id, expected
