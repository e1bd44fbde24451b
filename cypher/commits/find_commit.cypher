// record_commit: the commit already recorded under this project and full sha, with its links.
MATCH (c:Commit {tenant: $tenant, project: $project, sha: $sha})
RETURN c AS commit,
       [(c)-[l:IN_SESSION]->(s:Session) | {session_id: s.id, source: l.source,
         linked_at: l.linked_at, revision: l.revision}] AS sessions
