// Test fixture (no tool writes these yet): knowledge-pipeline nodes around existing facts.
// A chunk evidences an accepted claim (confidence 0.6, promoted to $promoted_fact_id) and a
// rejected one (promoted to $rejected_fact_id); an active pack and a retired pack include
// $promoted_fact_id.
MATCH (promoted:Fact {id: $promoted_fact_id})
WHERE promoted.tenant = $tenant
MATCH (other:Fact {id: $rejected_fact_id})
WHERE other.tenant = $tenant
CREATE (chunk:Chunk {tenant: $tenant, id: $chunk_id, title: 'incident notes'})
CREATE (claim:Claim {tenant: $tenant, id: $claim_id, status: 'accepted', confidence: 0.6})
CREATE (rejected:Claim {tenant: $tenant, id: $rejected_claim_id, status: 'rejected'})
CREATE (claim)-[:EVIDENCED_BY]->(chunk)
CREATE (rejected)-[:EVIDENCED_BY]->(chunk)
CREATE (claim)-[:PROMOTED_TO]->(promoted)
CREATE (rejected)-[:PROMOTED_TO]->(other)
CREATE (:Pack {tenant: $tenant, id: $pack_id, title: 'executor pack', status: 'active'})
       -[:INCLUDES]->(promoted)
CREATE (:Pack {tenant: $tenant, id: $retired_pack_id, title: 'old pack', status: 'retired'})
       -[:INCLUDES]->(promoted)
