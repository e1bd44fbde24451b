// The same body in the same project is one chunk: MERGE on it returns the existing one.
CREATE CONSTRAINT chunk_body_unique IF NOT EXISTS
FOR (c:Chunk) REQUIRE (c.tenant, c.project, c.body_hash) IS UNIQUE
