// Evaluate the reopen rules of these decisions in one traversal:
// Decision → Alternative → REOPEN_WHEN → FactKey → CURRENT Fact. One row per rule, with the
// verdict (true / false; null = unknown) and the reason for an unknown, grouped per decision
// into one row (many small records cost the driver more than one large one). Evidence is
// returned for every rule with $details, else only for breached rules. The evidence is the
// key's current fact unless it has lapsed, plus the live facts in open contradiction with
// it and the live current facts of the owner's keys naming the same subject under the same
// attribute (the subject's $spellings: one of them answers when the key has none); when
// their verdicts disagree the rule is unknown (conflicting_evidence). Comparison
// rules: graphmem/decisions/reopen_rules.py (typed projections written with each fact and rule). Instants are
// returned as ISO strings: the driver's temporal values cost more to decode than the query.
// Each rule also returns the unknown reason kept from its last evaluation in a write
// (stored_reason), each decision its count of unknown rules (stored_unknown; null before the
// first), so a write only sets the rule states that changed (decisions/set_rule_states).
UNWIND $decision_ids AS decision_id
MATCH (d:Decision {tenant: $tenant, id: decision_id})-[:HAS_ALTERNATIVE]->(a:Alternative)
      -[r:REOPEN_WHEN]->(k:FactKey)
OPTIONAL MATCH (k)-[:CURRENT]->(own:Fact)
WITH d, a, r, k, own, COLLECT {
       UNWIND coalesce($spellings[k.subject], []) AS spelling
       MATCH (same:FactKey {tenant: $tenant, subject: spelling, attribute: k.attribute})
       USING INDEX SEEK same:FactKey(tenant, subject, attribute)
       WHERE same.owner = k.owner AND same.id <> k.id
       MATCH (same)-[:CURRENT]->(g:Fact)
       WHERE coalesce(g.effective_until > datetime($now), true)
       RETURN g ORDER BY g.recorded_at DESC, g.id LIMIT 20
     } AS namesakes
WITH d, a, r, k, namesakes,
     CASE WHEN own IS NULL OR (own.effective_until <= datetime($now) AND namesakes <> [])
          THEN namesakes[0] ELSE own END AS f
WITH d, a, r, k, f, [g IN namesakes WHERE g <> f] AS namesakes,
     f IS NOT NULL AND f.effective_until IS NOT NULL
       AND f.effective_until <= datetime($now) AS lapsed,
     coalesce(r.operand_numbers, r.operand_instants) AS bounds
WITH d, a, r, k, f, lapsed, bounds,
     CASE WHEN f IS NULL OR lapsed THEN [] ELSE [f] + [
       (f)-[c:CONTRADICTS]-(other:Fact)
       WHERE c.cleared_at IS NULL AND other.status = 'active'
         AND coalesce(other.effective_until > datetime($now), true)
       | other] + namesakes
     END AS evidence
WITH d, a, r, k, f, lapsed, [e IN evidence | [x IN [CASE
       WHEN r.operand_kind = 'instant' THEN e.value_instant
       WHEN r.operand_kind = 'number' AND e.value_kind = 'number'
         THEN e.value_number * coalesce(r.unit_factor, 1.0)
       WHEN r.operand_kind = 'number' AND e.value_kind = 'quantity'
            AND e.value_dim = r.unit_dim THEN e.value_base
     END] | e {
       fact_id: e.id, .value_json, observed_at: toString(e.observed_at),
       valid_from: toString(e.valid_from), .source_class,
       .verification_status,
       verdict: CASE r.operator
         WHEN 'equals' THEN e.value_canon = r.operand_canon
         WHEN 'not_equals' THEN e.value_canon <> r.operand_canon
         WHEN 'contains' THEN CASE
           WHEN e.value_items IS NOT NULL THEN r.operand_canon IN e.value_items
           WHEN e.value_text IS NOT NULL THEN e.value_text CONTAINS r.operand_text
           WHEN e.value_keys IS NOT NULL THEN r.operand_text IN e.value_keys
         END
         WHEN 'in' THEN e.value_canon IN r.operand_items
         WHEN 'not_in' THEN NOT e.value_canon IN r.operand_items
         WHEN 'greater_than' THEN x > bounds[0]
         WHEN 'less_than' THEN x < bounds[0]
         WHEN 'gte' THEN x >= bounds[0]
         WHEN 'lte' THEN x <= bounds[0]
         WHEN 'between' THEN x >= bounds[0] AND x <= bounds[1]
       END
     }][0]] AS checks
WITH d, a, r, k, f, lapsed, checks, checks[0] AS main,
     CASE WHEN f IS NULL THEN COLLECT {
       MATCH (newest:Fact)
       USING INDEX newest:Fact(tenant, slot_id, recorded_at)
       WHERE newest.tenant = $tenant AND newest.slot_id = k.id AND newest.recorded_at IS NOT NULL
       RETURN newest.status ORDER BY newest.recorded_at DESC LIMIT 1
     } ELSE [] END AS newest_status
WITH d, a, r, main, checks,
  CASE
    WHEN f IS NULL AND newest_status = ['expired'] THEN 'expired_fact'
    WHEN f IS NULL THEN 'no_current_fact'
    WHEN lapsed THEN 'expired_fact'
    WHEN main.verdict IS NULL THEN 'incomparable_types'
    WHEN any(check IN checks WHERE check.verdict IS NULL OR check.verdict <> main.verdict)
      THEN 'conflicting_evidence'
  END AS reason
WITH d, a, r, main, checks, reason, reason IS NULL AND main.verdict AS breached
ORDER BY d.id, a.position, r.position
WITH d, collect({
  decision_id: d.id, alternative_id: a.id, rule_id: r.rule_id, key: r.key,
  operator: r.operator, operand_json: r.operand_json, unit: r.unit, verdict: main.verdict,
  reason: reason, stored_reason: r.unknown_reason,
  evidence: CASE WHEN $details OR breached THEN main END,
  conflicting: CASE WHEN $details OR breached THEN checks[1..] ELSE [] END
}) AS rules
RETURN collect({
  decision_id: d.id, project: d.project, title: d.title, status: d.status,
  review_after: toString(d.review_after), rules: rules, stored_unknown: d.unknown_rules,
  has_signal: EXISTS {
    MATCH (s:ReviewSignal {tenant: $tenant, decision_id: d.id})
    WHERE s.status IN ['open', 'acknowledged']
  }
}) AS decisions
