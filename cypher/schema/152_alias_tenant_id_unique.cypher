// One spelling of a subject, kept while a mention carries it.
CREATE CONSTRAINT alias_tenant_id_unique IF NOT EXISTS
FOR (a:Alias) REQUIRE (a.tenant, a.id) IS UNIQUE
