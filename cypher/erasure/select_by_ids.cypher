// An erasure's roots named by id: memories, facts, chunks, claims, raw turns and sessions,
// decisions, workstreams, attempts, outcomes, questions, answers, packs (each by an index on
// (tenant, id) or tenant), and commits by sha. Ids of other tenants or of nothing match nothing.
CALL () {
  MATCH (n:Memory) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Memory' AS kind
  UNION MATCH (n:Fact) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Fact' AS kind
  UNION MATCH (n:Chunk) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Chunk' AS kind
  UNION MATCH (n:Claim) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Claim' AS kind
  UNION MATCH (n:Turn) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Turn' AS kind
  UNION MATCH (n:Session) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Session' AS kind
  UNION MATCH (n:Decision) WHERE n.tenant = $tenant AND n.id IN $ids
  RETURN n, 'Decision' AS kind
  UNION MATCH (n:Workstream) WHERE n.tenant = $tenant AND n.id IN $ids
  RETURN n, 'Workstream' AS kind
  UNION MATCH (n:Attempt) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Attempt' AS kind
  UNION MATCH (n:Question) WHERE n.tenant = $tenant AND n.id IN $ids
  RETURN n, 'Question' AS kind
  UNION MATCH (n:Pack) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Pack' AS kind
  UNION MATCH (n:Commit) WHERE n.tenant = $tenant AND n.sha IN $ids RETURN n, 'Commit' AS kind
  UNION MATCH (n:Outcome) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Outcome' AS kind
  UNION MATCH (n:Answer) WHERE n.tenant = $tenant AND n.id IN $ids RETURN n, 'Answer' AS kind
}
RETURN elementId(n) AS ref, kind, coalesce(n.id, n.sha) AS id
