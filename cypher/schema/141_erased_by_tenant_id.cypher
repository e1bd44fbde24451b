// Tombstones (what an erasure left) by tenant and id: export reads them by a tenant seek.
CREATE INDEX erased_by_tenant_id IF NOT EXISTS FOR (n:Erased) ON (n.tenant, n.id)
