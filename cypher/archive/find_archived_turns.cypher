// archive_turns: which of the given turns the session already holds (same role, instant and
// content hash), by the turn identity constraint. Returns the caller's indexes of those.
UNWIND $keys AS k
MATCH (t:Turn {
  tenant: $tenant, session_id: $session_id, role: k.role, ts: datetime(k.ts),
  content_hash: k.content_hash
})
RETURN k.index AS index
