// Migration: Chunk ids were unique database-wide; they are unique per tenant now (chunk_tenant_id_unique),
// so an imported copy of a tenant keeps its ids (graphmem import).
DROP CONSTRAINT chunk_id_unique IF EXISTS
