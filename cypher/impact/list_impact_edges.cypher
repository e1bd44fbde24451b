// One round of explain_impact's walk. For each frontier node found in the tenant ($fact_ids,
// $claim_ids, $chunk_ids), one row with its outgoing edges: at most $fanout per edge kind
// (recorded links best score first), each with its target's kind, ref, label and whether the
// target is still valid. A frontier id that does not exist gives no row; a node without edges
// gives an empty list. The edges (graphmem/impact/service.py gives the derived ones type and score):
//   fact  -[IMPACTS]-> target                                    IMPACTS (recorded)
//   fact  <-[DEPENDS_ON]- decision                               DEPENDS_ON
//   fact  -[OF_KEY]-> key <-[DEPENDS_ON]- decision               DEPENDS_ON_KEY
//   fact  -[OF_KEY]-> key <-[REOPEN_WHEN]- alternative <-[HAS_ALTERNATIVE]- decision
//                                                                WATCHES_KEY
//   fact  <-[INCLUDES]- pack                                     INCLUDES
//   claim -[IMPACTS]-> target; claim -[PROMOTED_TO]-> fact       IMPACTS, PROMOTED_TO
//   chunk -[IMPACTS]-> target; chunk <-[EVIDENCED_BY]- claim     IMPACTS, EVIDENCED_BY
// Valid: a fact active and not lapsed at $now; a decision neither superseded nor reverted; a
// claim not rejected; a pack not retired; anything else always.
CALL () {
  UNWIND $fact_ids AS from_id
  MATCH (f:Fact {id: from_id})
  WHERE f.tenant = $tenant
  RETURN 'fact' AS from_kind, from_id, COLLECT {
    MATCH (f)-[r:IMPACTS]->(t)
    WHERE t.tenant = $tenant AND NOT t:Erased
    WITH r, t ORDER BY r.score DESC LIMIT $fanout
    RETURN {via: 'IMPACTS', impact_type: r.type, score: r.score, rationale: r.rationale,
            node: t} AS edge
    UNION ALL
    MATCH (t:Decision)-[:DEPENDS_ON]->(f)
    WHERE t.tenant = $tenant
    WITH t LIMIT $fanout
    RETURN {via: 'DEPENDS_ON', node: t} AS edge
    UNION ALL
    MATCH (f)-[:OF_KEY]->(k:FactKey)<-[:DEPENDS_ON]-(t:Decision)
    WHERE t.tenant = $tenant
    WITH k, t LIMIT $fanout
    RETURN {via: 'DEPENDS_ON_KEY', key: k.key, node: t} AS edge
    UNION ALL
    MATCH (f)-[:OF_KEY]->(k:FactKey)<-[w:REOPEN_WHEN]-(a:Alternative)
          <-[:HAS_ALTERNATIVE]-(t:Decision)
    WHERE t.tenant = $tenant
    WITH k, w, a, t LIMIT $fanout
    RETURN {via: 'WATCHES_KEY', key: k.key, rule_id: w.rule_id, operator: w.operator,
            alternative: a.title, node: t} AS edge
    UNION ALL
    MATCH (t:Pack)-[:INCLUDES]->(f)
    WHERE t.tenant = $tenant
    WITH t LIMIT $fanout
    RETURN {via: 'INCLUDES', node: t} AS edge
  } AS edges
  UNION ALL
  UNWIND $claim_ids AS from_id
  MATCH (c:Claim {id: from_id})
  WHERE c.tenant = $tenant
  RETURN 'claim' AS from_kind, from_id, COLLECT {
    MATCH (c)-[r:IMPACTS]->(t)
    WHERE t.tenant = $tenant AND NOT t:Erased
    WITH r, t ORDER BY r.score DESC LIMIT $fanout
    RETURN {via: 'IMPACTS', impact_type: r.type, score: r.score, rationale: r.rationale,
            node: t} AS edge
    UNION ALL
    MATCH (c)-[:PROMOTED_TO]->(t:Fact)
    WHERE t.tenant = $tenant
    WITH t LIMIT $fanout
    RETURN {via: 'PROMOTED_TO', node: t} AS edge
  } AS edges
  UNION ALL
  UNWIND $chunk_ids AS from_id
  MATCH (c:Chunk {id: from_id})
  WHERE c.tenant = $tenant
  RETURN 'chunk' AS from_kind, from_id, COLLECT {
    MATCH (c)-[r:IMPACTS]->(t)
    WHERE t.tenant = $tenant AND NOT t:Erased
    WITH r, t ORDER BY r.score DESC LIMIT $fanout
    RETURN {via: 'IMPACTS', impact_type: r.type, score: r.score, rationale: r.rationale,
            node: t} AS edge
    UNION ALL
    MATCH (t:Claim)-[:EVIDENCED_BY]->(c)
    WHERE t.tenant = $tenant
    WITH t LIMIT $fanout
    RETURN {via: 'EVIDENCED_BY', score: t.confidence, node: t} AS edge
  } AS edges
}
RETURN from_kind, from_id, [e IN edges | e {
  .via, .impact_type, .score, .rationale, .key, .rule_id, .operator, .alternative,
  kind: CASE
    WHEN e.node:Fact THEN 'fact'
    WHEN e.node:Decision THEN 'decision'
    WHEN e.node:Claim THEN 'claim'
    WHEN e.node:Chunk THEN 'chunk'
    WHEN e.node:Pack THEN 'pack'
    WHEN e.node:ImpactTarget THEN e.node.kind
  END,
  ref: CASE WHEN e.node:ImpactTarget THEN e.node.ref ELSE e.node.id END,
  label: coalesce(e.node.title, e.node.key, e.node.name),
  valid: CASE
    WHEN e.node:Fact THEN e.node.status = 'active'
      AND coalesce(e.node.effective_until > datetime($now), true)
    WHEN e.node:Decision THEN NOT coalesce(e.node.status, '') IN ['superseded', 'reverted']
    WHEN e.node:Claim THEN coalesce(e.node.status, '') <> 'rejected'
    WHEN e.node:Pack THEN coalesce(e.node.status, '') <> 'retired'
    ELSE true
  END
}] AS edges
