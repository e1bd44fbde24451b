// Fact ids are server-generated and unique; lookups add the tenant as a filter.
CREATE CONSTRAINT fact_id_unique IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE
