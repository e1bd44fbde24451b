// The rejected alternatives of a new decision, in the order given.
MATCH (d:Decision {tenant: $tenant, id: $decision_id})
UNWIND $alternatives AS alternative
CREATE (d)-[:HAS_ALTERNATIVE]->(:Alternative {
  tenant: $tenant, id: alternative.id, decision_id: d.id, title: alternative.title,
  why_rejected: alternative.why_rejected, position: alternative.position
})
