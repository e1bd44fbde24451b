// Test fixture: a current context pack made $age_minutes ago, INCLUDES each item found by id
// among the tenant's facts, claims, chunks and questions, and FOR_WORKSTREAM to its target
// when $link_workstream and that workstream exists.
CREATE (p:Pack {tenant: $tenant, id: $id, pack_type: $pack_type, target_ref: $target_ref,
                scope_key: coalesce($target_ref, '*'), items_included: $items_included,
                sections_json: $sections_json, token_usage: 10, token_budget: 4000,
                status: 'current', body: 'pack body',
                created_at: datetime() - duration({minutes: $age_minutes})})
WITH p
CALL (p) {
  UNWIND $items AS item
  OPTIONAL MATCH (f:Fact {id: item.id}) WHERE f.tenant = $tenant
  OPTIONAL MATCH (c:Claim {id: item.id}) WHERE c.tenant = $tenant
  OPTIONAL MATCH (k:Chunk {id: item.id}) WHERE k.tenant = $tenant
  OPTIONAL MATCH (q:Question {id: item.id}) WHERE q.tenant = $tenant
  WITH p, item, coalesce(f, c, k, q) AS n
  WHERE n IS NOT NULL
  CREATE (p)-[:INCLUDES {rank: item.rank, tokens: 5, section: item.section}]->(n)
  RETURN count(*) AS included
}
OPTIONAL MATCH (w:Workstream {tenant: $tenant, id: $target_ref})
FOREACH (_ IN CASE WHEN w IS NULL OR NOT $link_workstream THEN [] ELSE [1] END |
  CREATE (p)-[:FOR_WORKSTREAM]->(w)
)
RETURN p.id AS id, included
