// archive_turns: the raw-archive session of (project, source_root, host, session_ref), made on
// first use with a server-generated id. `created` says whether this call made it.
MERGE (s:Session {
  tenant: $tenant, project: $project, source_root: $source_root, host: $host,
  session_ref: $session_ref
})
  ON CREATE SET s.id = $id, s.message_count = 0, s.content_hash = $empty_hash,
                s.created_at = datetime($now)
RETURN s.id AS id, s.message_count AS message_count, s.content_hash AS content_hash,
       s.id = $id AS created
