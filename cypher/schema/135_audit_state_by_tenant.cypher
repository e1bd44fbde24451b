// graphmem export and stats find a tenant's AuditState nodes by this index (they hang off an owner
// otherwise; an export reads every label by a tenant seek).
CREATE INDEX audit_state_by_tenant IF NOT EXISTS FOR (a:AuditState) ON (a.tenant)
