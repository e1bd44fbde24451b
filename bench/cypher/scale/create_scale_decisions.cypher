// bench.scale: bulk-create active decisions, each with one rejected alternative whose reopen
// rule watches a loaded key (rules built by the domain's own _alternatives_and_rules). The
// watched keys are found before anything is created: a MATCH after the CREATEs was planned
// as a scan of the whole key index per row.
UNWIND $decisions AS row
CALL (row) {
  UNWIND row.rules AS rule
  MATCH (k:FactKey {tenant: $tenant, owner: $owner, key: rule.key})
  RETURN collect({rule: rule, key: k}) AS watched
}
CREATE (d:Decision {
  id: row.id, tenant: $tenant, project: $project, title: row.title, choice: 'keep',
  rationale: null, status: 'active', review_after: null,
  created_at: datetime($now), updated_at: datetime($now)
})
WITH d, row, watched
UNWIND row.alternatives AS alternative
CREATE (d)-[:HAS_ALTERNATIVE]->(a:Alternative {
  tenant: $tenant, id: alternative.id, decision_id: d.id, title: alternative.title,
  why_rejected: alternative.why_rejected, position: alternative.position
})
WITH a, [w IN watched WHERE w.rule.alternative_id = alternative.id] AS rules
UNWIND rules AS w
WITH a, w.rule AS rule, w.key AS k
CREATE (a)-[:REOPEN_WHEN {
  rule_id: rule.rule_id, position: rule.position, key: rule.key, operator: rule.operator,
  operand_json: rule.operand_json, operand_canon: rule.operand_canon,
  operand_text: rule.operand_text, operand_kind: rule.operand_kind,
  operand_numbers: rule.operand_numbers, operand_instants: [],
  operand_items: rule.operand_items, unit: rule.unit, unit_dim: rule.unit_dim,
  unit_factor: rule.unit_factor
}]->(k)
RETURN count(*) AS created
