// commits_for_session: the commits explicitly linked to one session (never inferred), newest
// commit first, one page ($limit + 1 rows so the caller knows whether more follow).
MATCH (s:Session {tenant: $tenant, id: $session_id})<-[l:IN_SESSION]-(c:Commit)
WHERE c.tenant = $tenant AND ($project IS NULL OR c.project = $project)
WITH c, l, s
ORDER BY coalesce(c.committed_at, c.recorded_at) DESC, c.sha, c.project
SKIP $offset LIMIT $limit + 1
RETURN c AS commit,
       {session_id: s.id, source: l.source, linked_at: l.linked_at, revision: l.revision} AS link
