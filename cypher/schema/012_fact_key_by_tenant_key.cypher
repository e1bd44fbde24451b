// current_state without a project looks a key up across the tenant's projects.
CREATE INDEX fact_key_by_tenant_key IF NOT EXISTS FOR (k:FactKey) ON (k.tenant, k.key)
