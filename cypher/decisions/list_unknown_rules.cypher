// review_decisions over a scope: the live decisions' reopen rules that cannot fire now, kept
// as state by the writes that evaluate them (decisions/set_rule_states). An index seek on
// Decision(tenant, unknown_rules) finds only decisions with such rules, so the cost follows
// the dead rules in scope, not the decisions stored. Exact totals per reason, one page of
// rules in (decision id, alternative, rule) order.
MATCH (d:Decision {tenant: $tenant})
WHERE d.unknown_rules > 0 AND d.status IN ['active', 'review_required', 'stale']
  AND ($project IS NULL OR d.project = $project)
MATCH (d)-[:HAS_ALTERNATIVE]->(a:Alternative)-[r:REOPEN_WHEN]->(:FactKey)
WHERE r.unknown_reason IS NOT NULL
WITH d, a, r ORDER BY d.id, a.position, r.position
WITH collect({
  decision_id: d.id, rule_id: r.rule_id, key: r.key, reason: r.unknown_reason,
  since: toString(r.unknown_since)
}) AS rules
RETURN size(rules) AS total,
       [reason IN ['no_current_fact', 'expired_fact', 'incomparable_types',
                   'conflicting_evidence'] |
        {reason: reason, rules: size([rule IN rules WHERE rule.reason = reason])}] AS by_reason,
       rules[$offset..$offset + $limit] AS page
