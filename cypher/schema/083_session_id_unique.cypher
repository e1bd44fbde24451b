// A session by id within its tenant (commit links and other memory records point at it).
CREATE CONSTRAINT session_id_unique IF NOT EXISTS
FOR (s:Session) REQUIRE (s.tenant, s.id) IS UNIQUE
