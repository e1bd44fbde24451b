// One slot per (tenant, owner, key), owner = "project:<p>" or "origin:<o>". MERGE on it is the
// lock that keeps exactly one active fact per key under concurrent writers.
CREATE CONSTRAINT fact_key_owner_unique IF NOT EXISTS
FOR (k:FactKey) REQUIRE (k.tenant, k.owner, k.key) IS UNIQUE
