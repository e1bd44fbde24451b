// Pack ids are server-generated and unique (as fact, chunk and claim ids): audit and impact
// look a pack up by id, adding the tenant as a filter.
CREATE CONSTRAINT pack_id_unique IF NOT EXISTS FOR (p:Pack) REQUIRE p.id IS UNIQUE
