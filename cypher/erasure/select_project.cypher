// An erasure's roots: everything of one project (its dependents follow by expansion), each
// kind by an index on (tenant, project, ...) or, for decisions and questions, (tenant, id).
CALL () {
  MATCH (n:Memory) WHERE n.tenant = $tenant AND n.project = $project AND n.updated_at IS NOT NULL RETURN n, 'Memory' AS kind
  UNION MATCH (n:FactKey) WHERE n.tenant = $tenant AND n.project = $project AND n.key IS NOT NULL
  RETURN n, 'FactKey' AS kind
  UNION MATCH (n:Chunk)
  WHERE n.tenant = $tenant AND n.project = $project AND n.body_hash IS NOT NULL
  RETURN n, 'Chunk' AS kind
  UNION MATCH (n:Claim)
  WHERE n.tenant = $tenant AND n.project = $project AND n.triple_key IS NOT NULL
  RETURN n, 'Claim' AS kind
  UNION MATCH (n:Session)
  WHERE n.tenant = $tenant AND n.project = $project AND n.last_ts IS NOT NULL
  RETURN n, 'Session' AS kind
  UNION MATCH (n:Decision) WHERE n.tenant = $tenant AND n.id IS NOT NULL AND n.project = $project
  RETURN n, 'Decision' AS kind
  UNION MATCH (n:Workstream)
  WHERE n.tenant = $tenant AND n.project = $project AND n.status IS NOT NULL
    AND n.updated_at IS NOT NULL
  RETURN n, 'Workstream' AS kind
  UNION MATCH (n:Commit) WHERE n.tenant = $tenant AND n.project = $project AND n.sha IS NOT NULL
  RETURN n, 'Commit' AS kind
  UNION MATCH (n:Question) WHERE n.tenant = $tenant AND n.id IS NOT NULL AND n.project = $project
  RETURN n, 'Question' AS kind
}
RETURN elementId(n) AS ref, kind, coalesce(n.id, n.sha) AS id
