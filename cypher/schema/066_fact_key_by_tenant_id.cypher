// audit_memory walks a tenant's fact keys in id order from a cursor (key slot drift).
CREATE INDEX fact_key_by_tenant_id IF NOT EXISTS FOR (k:FactKey) ON (k.tenant, k.id)
