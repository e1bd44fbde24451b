// Tools that take a session id as a reference (build_context_pack): the caller's session by
// id, so another tenant's reads exactly like one that never existed.
MATCH (s:Session {tenant: $tenant, id: $session_id})
RETURN s.id AS id
