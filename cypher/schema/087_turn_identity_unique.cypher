// The same turn twice (same session, role, instant and content hash) is stored once.
CREATE CONSTRAINT turn_identity_unique IF NOT EXISTS
FOR (t:Turn) REQUIRE (t.tenant, t.session_id, t.role, t.ts, t.content_hash) IS UNIQUE
