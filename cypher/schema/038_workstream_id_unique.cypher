// A workstream by id within its tenant (attempts for a workstream; the memory tools' home).
CREATE CONSTRAINT workstream_id_unique IF NOT EXISTS
FOR (w:Workstream) REQUIRE (w.tenant, w.id) IS UNIQUE
