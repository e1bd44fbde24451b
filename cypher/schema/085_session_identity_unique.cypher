// A raw-archive session is one per (tenant, project, source_root, host, session_ref):
// archive_turns MERGEs on it, and every later lookup of the session seeks this constraint.
CREATE CONSTRAINT session_identity_unique IF NOT EXISTS
FOR (s:Session) REQUIRE (s.tenant, s.project, s.source_root, s.host, s.session_ref) IS UNIQUE
