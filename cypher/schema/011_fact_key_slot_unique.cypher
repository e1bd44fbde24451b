// One slot per (tenant, project, key): MERGE on it is the lock that keeps one active fact.
CREATE CONSTRAINT fact_key_slot_unique IF NOT EXISTS
FOR (k:FactKey) REQUIRE (k.tenant, k.project, k.key) IS UNIQUE
