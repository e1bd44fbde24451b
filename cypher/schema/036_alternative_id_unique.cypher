// An alternative by id within its tenant (linking its reopen rules).
CREATE CONSTRAINT alternative_id_unique IF NOT EXISTS
FOR (a:Alternative) REQUIRE (a.tenant, a.id) IS UNIQUE
