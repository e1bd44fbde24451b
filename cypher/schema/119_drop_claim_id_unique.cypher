// Migration: Claim ids were unique database-wide; they are unique per tenant now (claim_tenant_id_unique),
// so an imported copy of a tenant keeps its ids (graphmem import).
DROP CONSTRAINT claim_id_unique IF EXISTS
