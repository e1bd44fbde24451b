// bench.scale: bulk-create active facts shaped like record_fact's (each in its own key slot,
// the key's current fact, with the typed value projections rules compare). Bench-only
// catalog (bench/cypher), never loaded by the server.
UNWIND $facts AS fact
CREATE (k:FactKey {
  tenant: $tenant, id: fact.key_id, owner: 'project:' + $project, key: fact.key,
  project: $project, created_at: datetime(fact.at), updated_at: datetime(fact.at)
})
CREATE (f:Fact {
  tenant: $tenant, id: fact.id, slot_id: fact.key_id, owner: 'project:' + $project,
  project: $project, key: fact.key, value_json: fact.value_json, status: 'active',
  source_class: 'agent_claimed', confidence: 0.8, verification_status: 'unverified',
  contradiction_count: 0, observed_at: datetime(fact.at), valid_from: datetime(fact.at),
  recorded_at: datetime(fact.at), created_at: datetime(fact.at), updated_at: datetime(fact.at),
  schema_version: 1, value_kind: 'number', value_number: fact.value,
  value_canon: fact.value_json
})
CREATE (f)-[:OF_KEY]->(k)
CREATE (k)-[:CURRENT {since: datetime(fact.at)}]->(f)
CREATE (f)-[:HAS_STATE]->(:FactState {
  tenant: $tenant, fact_id: fact.id, tx_from: datetime(fact.at), status: 'active'
})
RETURN count(*) AS created
