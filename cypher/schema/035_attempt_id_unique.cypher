// An attempt by id within its tenant (record_outcome).
CREATE CONSTRAINT attempt_id_unique IF NOT EXISTS
FOR (a:Attempt) REQUIRE (a.tenant, a.id) IS UNIQUE
