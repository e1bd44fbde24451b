// Test helper: a claim with its evidence and promotion links.
MATCH (c:Claim {tenant: $tenant, id: $id})
RETURN c {.*, created_at: null, updated_at: null, promoted_at: toString(c.promoted_at)} AS claim,
       [(c)-[e:EVIDENCED_BY]->(k:Chunk) | e {chunk_id: k.id, .type, .weight, .excerpt, .start,
                                            .end}] AS evidence,
       [(c)-[p:PROMOTED_TO]->(f:Fact) | p {fact_id: f.id, .mode, .reused}] AS promoted_to
