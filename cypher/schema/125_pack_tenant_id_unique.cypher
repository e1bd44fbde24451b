// Pack ids are server-generated and unique per tenant (a copy of a tenant keeps them).
CREATE CONSTRAINT pack_tenant_id_unique IF NOT EXISTS FOR (p:Pack) REQUIRE (p.tenant, p.id) IS UNIQUE
