// Decisions by id with their alternatives, the rules they carry and their dependencies (an
// erased one is no longer listed: its tombstone has neither label).
UNWIND $ids AS decision_id
MATCH (d:Decision {tenant: $tenant, id: decision_id})
RETURN d AS decision,
  [(d)-[:SUPERSEDES]->(older:Decision) | older.id][0] AS supersedes_decision_id,
  [(newer:Decision)-[:SUPERSEDES]->(d) | newer.id][0] AS superseded_by_decision_id,
  COLLECT {
    MATCH (d)-[:HAS_ALTERNATIVE]->(a:Alternative)
    RETURN a {
      .id, .title, .why_rejected, .position,
      rules: [(a)-[r:REOPEN_WHEN]->(:FactKey) | r {
        .rule_id, .position, .key, .operator, .operand_json, .unit
      }]
    } AS alternative ORDER BY alternative.position
  } AS alternatives,
  [(d)-[:DEPENDS_ON]->(target:Fact|FactKey) | CASE
    WHEN target:Fact THEN {kind: 'fact', ref: target.id}
    ELSE {kind: 'key', ref: target.key}
  END] AS depends_on
