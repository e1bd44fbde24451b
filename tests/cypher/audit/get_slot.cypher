// Test helper: a fact's key slot: its CURRENT and WAS_CURRENT facts, and every fact with its
// status and the facts it SUPERSEDES.
MATCH (:Fact {tenant: $tenant, id: $fact_id})-[:OF_KEY]->(k:FactKey)
RETURN k.id AS key_id,
       [(k)-[:CURRENT]->(f:Fact) | f.id] AS current,
       [(k)-[:WAS_CURRENT]->(f:Fact) | f.id] AS was_current,
       [(k)<-[:OF_KEY]-(f:Fact) | f {.id, .status, .contradiction_count,
         supersedes: [(f)-[:SUPERSEDES]->(o:Fact) | o.id],
         states: size([(f)-[:HAS_STATE]->(s:FactState) | s])}] AS facts
