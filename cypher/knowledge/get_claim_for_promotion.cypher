// promote_candidate: one claim by id with its evidence count (chunks evidencing it).
MATCH (cl:Claim {tenant: $tenant, id: $id})
RETURN cl {.id, .project, .subject, .predicate, .object, .subject_norm, .object_norm,
           .triple_key, .scope, .confidence, .requires_human, .status, .fact_id} AS claim,
       COUNT { (cl)-[:EVIDENCED_BY]->(:Chunk) } AS evidence_count
