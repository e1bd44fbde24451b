// A tenant's current context packs in id order from a cursor (audit_memory's pack checks).
CREATE INDEX pack_by_status_id IF NOT EXISTS FOR (p:Pack) ON (p.tenant, p.status, p.id)
