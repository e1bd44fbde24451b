// link_impact, once find_impact_endpoints found both ends: the IMPACTS link of (source,
// target, type), created or, when it exists, given the new score and rationale (its id and
// created_at stay). An external target is merged as (:ImpactTarget {tenant, kind, ref}).
// The caller holds the tenant's history lock, so two writers never race on the MERGE.
CALL () {
  MATCH (s:Fact {id: $source_ref})
  WHERE $source_kind = 'fact' AND s.tenant = $tenant
  RETURN s
  UNION ALL
  MATCH (s:Claim {id: $source_ref})
  WHERE $source_kind = 'claim' AND s.tenant = $tenant
  RETURN s
  UNION ALL
  MATCH (s:Chunk {id: $source_ref})
  WHERE $source_kind = 'chunk' AND s.tenant = $tenant
  RETURN s
}
CALL () {
  MATCH (t:Fact {id: $target_ref})
  WHERE $target_kind = 'fact' AND t.tenant = $tenant
  RETURN t
  UNION ALL
  MATCH (t:Decision {tenant: $tenant, id: $target_ref})
  WHERE $target_kind = 'decision'
  RETURN t
  UNION ALL
  UNWIND CASE WHEN $external THEN [true] ELSE [] END AS external
  MERGE (t:ImpactTarget {tenant: $tenant, kind: $target_kind, ref: $target_ref})
    ON CREATE SET t.created_at = datetime($now)
  RETURN t
}
MERGE (s)-[r:IMPACTS {type: $impact_type}]->(t)
  ON CREATE SET r.id = $edge_id, r.created_at = datetime($now)
SET r.score = $score, r.rationale = $rationale, r.updated_at = datetime($now)
RETURN r.id AS edge_id, r.id = $edge_id AS created, r.score AS score, r.rationale AS rationale,
       r.created_at AS created_at, r.updated_at AS updated_at
