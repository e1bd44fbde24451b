// archive_turns: fold the stored turns into the session's window, count and content hash.
MATCH (s:Session {tenant: $tenant, id: $session_id})
SET s.first_ts = CASE WHEN s.first_ts IS NULL OR datetime($first_ts) < s.first_ts
                      THEN datetime($first_ts) ELSE s.first_ts END,
    s.last_ts = CASE WHEN s.last_ts IS NULL OR datetime($last_ts) > s.last_ts
                     THEN datetime($last_ts) ELSE s.last_ts END,
    s.message_count = s.message_count + $stored,
    s.next_seq = $next_seq,
    s.content_hash = $content_hash,
    s.updated_at = datetime($now)
RETURN s AS session
