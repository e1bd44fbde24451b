// A decision by id within its tenant.
CREATE CONSTRAINT decision_id_unique IF NOT EXISTS
FOR (d:Decision) REQUIRE (d.tenant, d.id) IS UNIQUE
