// Live decisions with a reopen rule on the key of any of these facts (push on fact writes).
UNWIND $fact_ids AS fact_id
MATCH (:Fact {tenant: $tenant, id: fact_id})-[:OF_KEY]->(:FactKey)
      <-[:REOPEN_WHEN]-(:Alternative)<-[:HAS_ALTERNATIVE]-(d:Decision)
WHERE d.status IN ['active', 'review_required', 'stale']
RETURN DISTINCT d.id AS id ORDER BY id
