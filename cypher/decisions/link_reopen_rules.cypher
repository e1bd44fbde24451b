// Each reopen rule is a REOPEN_WHEN edge from its alternative to the watched key's slot,
// created here when no fact was recorded under the key yet (record_fact fills it later).
UNWIND $rules AS rule
MATCH (a:Alternative {tenant: $tenant, decision_id: $decision_id, id: rule.alternative_id})
MERGE (k:FactKey {tenant: $tenant, owner: $owner, key: rule.key})
  ON CREATE SET k.id = rule.key_id, k.project = $project, k.origin_id = null,
                k.created_at = datetime($now), k.updated_at = datetime($now)
SET k.subject = rule.subject, k.attribute = rule.attribute
CREATE (a)-[:REOPEN_WHEN {
  rule_id: rule.rule_id, position: rule.position, key: rule.key, operator: rule.operator,
  operand_json: rule.operand_json, operand_canon: rule.operand_canon,
  operand_text: rule.operand_text, operand_kind: rule.operand_kind,
  operand_numbers: rule.operand_numbers,
  operand_instants: [instant IN rule.operand_instants | datetime(instant)],
  operand_items: rule.operand_items, unit: rule.unit, unit_dim: rule.unit_dim,
  unit_factor: rule.unit_factor
}]->(k)
