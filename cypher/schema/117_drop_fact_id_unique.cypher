// Migration: Fact ids were unique database-wide; they are unique per tenant now (fact_tenant_id_unique),
// so an imported copy of a tenant keeps its ids (graphmem import).
DROP CONSTRAINT fact_id_unique IF EXISTS
