// Close each fact's open transaction-time state and open one with its fields as they are now.
UNWIND $ids AS fact_id
MATCH (f:Fact {tenant: $tenant, id: fact_id})
OPTIONAL MATCH (f)-[:HAS_STATE]->(open:FactState)
WHERE open.tx_to IS NULL
SET open.tx_to = datetime($now)
CREATE (f)-[:HAS_STATE]->(:FactState {
  tenant: $tenant, fact_id: fact_id, tx_from: datetime($now), status: f.status,
  valid_to: f.valid_to, expires_at: f.expires_at
})
