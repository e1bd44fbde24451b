// promote_candidate: the claim becomes promoted onto the fact (new or reinforced), linked by
// PROMOTED_TO; the fact carries the triple (a reinforced fact keeps the triple it had).
MATCH (cl:Claim {tenant: $tenant, id: $claim_id})
MATCH (f:Fact {tenant: $tenant, id: $fact_id})
SET cl.status = 'promoted', cl.promoted_at = datetime($now), cl.fact_id = f.id,
    cl.validation_mode = $mode, cl.updated_at = datetime($now),
    f.subject = coalesce(f.subject, cl.subject), f.predicate = coalesce(f.predicate, cl.predicate),
    f.object = coalesce(f.object, cl.object),
    f.subject_norm = coalesce(f.subject_norm, cl.subject_norm),
    f.object_norm = coalesce(f.object_norm, cl.object_norm),
    f.scope = coalesce(f.scope, cl.scope),
    f.validation_mode = coalesce(f.validation_mode, $mode),
    f.claim_id = coalesce(f.claim_id, cl.id)
CREATE (cl)-[:PROMOTED_TO {at: datetime($now), mode: $mode, reused: $reused}]->(f)
RETURN cl.id AS claim_id
