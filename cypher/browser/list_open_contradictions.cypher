// Browser guide: contradictions open now: both facts active and the link not cleared.
MATCH (a:Fact)-[c:CONTRADICTS]->(b:Fact)
WHERE a.tenant = $tenant AND a.contradiction_count > 0 AND c.cleared_at IS NULL
  AND a.status = 'active' AND b.status = 'active' AND b.tenant = $tenant
RETURN a, c, b
LIMIT 100
