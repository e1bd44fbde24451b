// bench.impact: bulk-create minimal active facts (only what the impact walk reads). Bench-only
// catalog (bench/cypher), never loaded by the server.
UNWIND $facts AS fact
CREATE (:Fact {
  tenant: $tenant, id: fact.id, key: fact.key, status: 'active', value_json: 'null',
  recorded_at: datetime($now)
})
