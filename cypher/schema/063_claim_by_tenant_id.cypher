// audit_memory walks a tenant's claims in id order from a cursor, a bounded batch per run.
CREATE INDEX claim_by_tenant_id IF NOT EXISTS FOR (c:Claim) ON (c.tenant, c.id)
