// Revalidation: the SUPERSEDES links into a fact stop counting (kept, stamped cleared_at).
MATCH (:Fact {tenant: $tenant})-[s:SUPERSEDES]->(f:Fact {tenant: $tenant, id: $id})
WHERE s.cleared_at IS NULL
SET s.cleared_at = datetime($now)
RETURN count(s) AS cleared
