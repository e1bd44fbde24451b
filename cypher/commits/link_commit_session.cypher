// record_commit: link a commit to the session the caller named (the session node is merged);
// an existing link is kept as it was.
MATCH (c:Commit {tenant: $tenant, project: $project, sha: $sha})
MERGE (s:Session {tenant: $tenant, id: $session_id})
MERGE (c)-[l:IN_SESSION]->(s)
  ON CREATE SET l.source = 'record_commit', l.linked_at = datetime($now), l.revision = $revision
RETURN c AS commit,
       [(c)-[k:IN_SESSION]->(t:Session) | {session_id: t.id, source: k.source,
         linked_at: k.linked_at, revision: k.revision}] AS sessions
