// Fact ids are server-generated and unique per tenant (a copy of a tenant keeps them).
CREATE CONSTRAINT fact_tenant_id_unique IF NOT EXISTS FOR (n:Fact) REQUIRE (n.tenant, n.id) IS UNIQUE
