// archive_turns: the session as it stands (when every turn was already stored).
MATCH (s:Session {tenant: $tenant, id: $session_id})
RETURN s AS session
