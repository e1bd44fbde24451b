// A curated memory by id within its tenant (get_observations, govern_memory, timeline).
CREATE CONSTRAINT memory_id_unique IF NOT EXISTS
FOR (m:Memory) REQUIRE (m.tenant, m.id) IS UNIQUE
