// An erasure's roots: everything of one project (its dependents follow by expansion).
CALL () {
  MATCH (n:Memory) WHERE n.tenant = $tenant AND n.project = $project RETURN n, 'Memory' AS kind
  UNION MATCH (n:FactKey) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'FactKey' AS kind
  UNION MATCH (n:Chunk) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Chunk' AS kind
  UNION MATCH (n:Claim) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Claim' AS kind
  UNION MATCH (n:Session) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Session' AS kind
  UNION MATCH (n:Decision) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Decision' AS kind
  UNION MATCH (n:Workstream) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Workstream' AS kind
  UNION MATCH (n:Commit) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Commit' AS kind
  UNION MATCH (n:Question) WHERE n.tenant = $tenant AND n.project = $project
  RETURN n, 'Question' AS kind
}
RETURN elementId(n) AS ref, kind, coalesce(n.id, n.sha) AS id
