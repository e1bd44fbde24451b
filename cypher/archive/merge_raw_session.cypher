// archive_turns: the raw-archive session of (project, source_root, host, session_ref), made on
// first use with a server-generated id. `created` says whether this call made it.
MERGE (s:Session {
  tenant: $tenant, project: $project, source_root: $source_root, host: $host,
  session_ref: $session_ref
})
  ON CREATE SET s.id = $id, s.message_count = 0, s.next_seq = 0, s.content_hash = $empty_hash,
                s.created_at = datetime($now)
// next_seq numbers the next turn and never goes down (message_count does, with an erasure):
// a turn's seq is never another's, before or after an erasure. Sessions older than next_seq
// number on from message_count.
RETURN s.id AS id, s.message_count AS message_count, s.content_hash AS content_hash,
       coalesce(s.next_seq, s.message_count) AS next_seq, s.id = $id AS created
