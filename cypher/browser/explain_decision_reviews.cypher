// Browser guide: why a decision is under review: its open review signal names the breached
// rules; each is drawn as decision -> rejected alternative -> reopen rule -> watched key ->
// the key's current fact (the value that breached it).
MATCH (s:ReviewSignal)
USING INDEX s:ReviewSignal(tenant, status)
WHERE s.tenant = $tenant AND s.status = 'open'
MATCH (d:Decision {tenant: $tenant, id: s.decision_id})
MATCH rule = (d)-[:HAS_ALTERNATIVE]->(:Alternative)-[r:REOPEN_WHEN]->(k:FactKey)
WHERE r.rule_id IN s.breached_rule_ids
OPTIONAL MATCH current = (k)-[:CURRENT]->(:Fact)
RETURN rule, current
LIMIT 100
