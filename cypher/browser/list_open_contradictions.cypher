// Browser guide: contradictions open now: both facts active and the link not cleared. The
// index is pinned: with few contradictions in the store the planner scanned the relationship
// type instead.
MATCH (a:Fact)-[c:CONTRADICTS]->(b:Fact)
USING INDEX a:Fact(tenant, contradiction_count)
WHERE a.tenant = $tenant AND a.contradiction_count > 0 AND c.cleared_at IS NULL
  AND a.status = 'active' AND b.status = 'active' AND b.tenant = $tenant
RETURN a, c, b
LIMIT 100
