// A subject the memory is about (graphmem/subjects/): one per tenant and id.
CREATE CONSTRAINT subject_tenant_id_unique IF NOT EXISTS
FOR (s:Subject) REQUIRE (s.tenant, s.id) IS UNIQUE
