// Claim ids are server-generated and unique (as fact ids): link_impact and explain_impact look
// a claim source up by id. Declared here for the impact walk; the knowledge pipeline writes
// claims (an equivalent constraint declared again under another name is a no-op).
CREATE CONSTRAINT claim_id_unique IF NOT EXISTS FOR (c:Claim) REQUIRE c.id IS UNIQUE
