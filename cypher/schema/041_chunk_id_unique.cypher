// Chunk ids are server-generated and unique (as fact ids): link_impact and explain_impact look
// a chunk source up by id. Declared here for the impact walk; the knowledge pipeline writes
// chunks (an equivalent constraint declared again under another name is a no-op).
CREATE CONSTRAINT chunk_id_unique IF NOT EXISTS FOR (c:Chunk) REQUIRE c.id IS UNIQUE
