// audit_memory, contradictions: facts with a positive contradiction_count after the cursor (id
// order; the index seek reads only facts with a positive count), the facts of open issues, and
// their CONTRADICTS neighbours (at most $fanout each). Per fact: its stored count and the
// expected one (open CONTRADICTS links, not cleared, to live facts: active and not lapsed),
// and, for a live fact, its live partners (the unresolved pairs).
CALL () {
  MATCH (f:Fact)
  USING INDEX SEEK f:Fact(tenant, contradiction_count)
  WHERE f.tenant = $tenant AND f.contradiction_count > 0 AND f.id > $after
  WITH f ORDER BY f.id LIMIT $limit
  RETURN f, true AS scanned
  UNION
  UNWIND $recheck AS ref
  MATCH (f:Fact {id: ref})
  WHERE f.tenant = $tenant
  RETURN f, false AS scanned
}
WITH collect(f) AS candidates, count(CASE WHEN scanned THEN 1 END) AS scanned,
     max(CASE WHEN scanned THEN f.id END) AS last
CALL (candidates) {
  UNWIND candidates AS f
  UNWIND [f] + [(f)-[:CONTRADICTS]-(g:Fact) WHERE g.tenant = $tenant | g][..$fanout] AS x
  WITH DISTINCT x
  WITH x, [(x)-[c:CONTRADICTS]-(y:Fact)
           WHERE c.cleared_at IS NULL AND y.status = 'active'
             AND coalesce(y.effective_until > datetime($now), true) | y.id] AS partners
  RETURN collect({
    ref: x.id, stored: x.contradiction_count, expected: size(partners),
    live: x.status = 'active' AND coalesce(x.effective_until > datetime($now), true),
    partners: partners
  }) AS facts
}
RETURN facts, scanned, last
