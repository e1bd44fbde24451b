// Browser guide: which decisions have rules that cannot fire: live decisions whose reopen
// rules watch a key with no current fact, an expired one, a value of another type or
// conflicting evidence (r.unknown_reason, kept by the writes that evaluate the rules and by
// maintain). Drawn as decision -> rejected alternative -> reopen rule -> watched key -> the
// key's current fact, if it has one.
MATCH (d:Decision {tenant: $tenant})
WHERE d.unknown_rules > 0 AND d.status IN ['active', 'review_required', 'stale']
MATCH rule = (d)-[:HAS_ALTERNATIVE]->(:Alternative)-[r:REOPEN_WHEN]->(k:FactKey)
WHERE r.unknown_reason IS NOT NULL
OPTIONAL MATCH current = (k)-[:CURRENT]->(:Fact)
RETURN rule, current
LIMIT 100
