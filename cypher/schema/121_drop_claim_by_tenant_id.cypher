// Migration: replaced by claim_tenant_id_unique (124), whose index serves the same seeks (an index
// and a constraint cannot share one schema).
DROP INDEX claim_by_tenant_id IF EXISTS
