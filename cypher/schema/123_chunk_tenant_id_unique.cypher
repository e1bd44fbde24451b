// Chunk ids are server-generated and unique per tenant (a copy of a tenant keeps them).
CREATE CONSTRAINT chunk_tenant_id_unique IF NOT EXISTS FOR (c:Chunk) REQUIRE (c.tenant, c.id) IS UNIQUE
