// Persist one context pack: the Pack node, an INCLUDES edge {rank, tokens, section} to each
// selected item (found by the elementId read in this same transaction, tenant checked), and
// FOR_WORKSTREAM to the workstream of a task-scoped pack.
CREATE (p:Pack {
  id: $id, tenant: $tenant, pack_type: $pack_type, target_ref: $target_ref,
  scope_key: $scope_key, title: $title, token_budget: $token_budget,
  token_usage: $token_usage, items_included: $items_included, body: $body,
  status: 'current', freshness_score: $freshness_score, relevance_score: $relevance_score,
  quality_score: $quality_score, contract_version: $contract_version,
  selection_policy: $selection_policy, sections_json: $sections_json,
  session_id: $session_id, created_at: datetime($now), retired_at: null
})
WITH p
CALL (p) {
  UNWIND $items AS item
  MATCH (n)
  WHERE elementId(n) = item.element_id AND n.tenant = $tenant
  CREATE (p)-[:INCLUDES {rank: item.rank, tokens: item.tokens, section: item.section,
                         score: item.score}]->(n)
  RETURN count(n) AS included
}
CALL (p) {
  OPTIONAL MATCH (w:Workstream {tenant: $tenant, id: $target_ref})
  FOREACH (_ IN CASE WHEN w IS NULL THEN [] ELSE [1] END | CREATE (p)-[:FOR_WORKSTREAM]->(w))
  RETURN count(w) AS scoped
}
RETURN p.id AS id, included, scoped
