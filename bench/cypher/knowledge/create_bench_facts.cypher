// bench.knowledge: bulk-create facts shaped like record_fact's (each in its own key slot, the
// current fact of it when active), only what the measured tools read. Bench-only catalog
// (bench/cypher), never loaded by the server.
UNWIND $facts AS fact
CREATE (k:FactKey {
  tenant: $tenant, id: fact.key_id, owner: 'project:' + $project, key: fact.key,
  project: $project, created_at: datetime(fact.recorded_at), updated_at: datetime($now)
})
CREATE (f:Fact {
  tenant: $tenant, id: fact.id, slot_id: fact.key_id, owner: 'project:' + $project,
  project: $project, key: fact.key, value_json: fact.value_json, status: fact.status,
  source_class: 'agent_claimed', confidence: fact.confidence,
  verification_status: 'unverified', contradiction_count: 0,
  observed_at: datetime(fact.recorded_at), valid_from: datetime(fact.recorded_at),
  recorded_at: datetime(fact.recorded_at), created_at: datetime(fact.recorded_at),
  updated_at: datetime($now), schema_version: 1
})
CREATE (f)-[:OF_KEY]->(k)
FOREACH (_ IN CASE WHEN fact.status = 'active' THEN [1] ELSE [] END |
  CREATE (k)-[:CURRENT {since: datetime(fact.recorded_at)}]->(f)
)
