// get_observations (source raw) and search's graph channel: a turn by id within its tenant.
CREATE CONSTRAINT turn_id_unique IF NOT EXISTS
FOR (t:Turn) REQUIRE (t.tenant, t.id) IS UNIQUE
