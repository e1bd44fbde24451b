// link_impact: whether its source (a chunk, claim or fact) and, for a fact or decision target,
// its target exist in the tenant. External targets (session, snapshot, mapping, validation,
// export) always "exist": link_impact merges them. One row.
OPTIONAL MATCH (fact:Fact {id: $source_ref})
WHERE $source_kind = 'fact' AND fact.tenant = $tenant
OPTIONAL MATCH (claim:Claim {id: $source_ref})
WHERE $source_kind = 'claim' AND claim.tenant = $tenant
OPTIONAL MATCH (chunk:Chunk {id: $source_ref})
WHERE $source_kind = 'chunk' AND chunk.tenant = $tenant
OPTIONAL MATCH (target_fact:Fact {id: $target_ref})
WHERE $target_kind = 'fact' AND target_fact.tenant = $tenant
OPTIONAL MATCH (decision:Decision {tenant: $tenant, id: $target_ref})
WHERE $target_kind = 'decision'
RETURN coalesce(fact, claim, chunk) IS NOT NULL AS source_found,
       $external OR coalesce(target_fact, decision) IS NOT NULL AS target_found
