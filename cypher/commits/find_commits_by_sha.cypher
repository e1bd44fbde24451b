// lookup_commit: commits whose full sha equals or starts with $prefix (an index seek),
// optionally in one project; exact match first, then newest recorded; with their links.
MATCH (c:Commit)
USING INDEX c:Commit(tenant, sha)
WHERE c.tenant = $tenant AND c.sha STARTS WITH $prefix
  AND ($project IS NULL OR c.project = $project)
WITH c ORDER BY CASE WHEN c.sha = $prefix THEN 0 ELSE 1 END, c.recorded_at DESC, c.project
LIMIT $limit + 1
RETURN c AS commit,
       [(c)-[l:IN_SESSION]->(s:Session) | {session_id: s.id, source: l.source,
         linked_at: l.linked_at, revision: l.revision}] AS sessions
