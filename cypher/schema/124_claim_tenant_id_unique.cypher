// Claim ids are server-generated and unique per tenant (a copy of a tenant keeps them).
CREATE CONSTRAINT claim_tenant_id_unique IF NOT EXISTS FOR (c:Claim) REQUIRE (c.tenant, c.id) IS UNIQUE
