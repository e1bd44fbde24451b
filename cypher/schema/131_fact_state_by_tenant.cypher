// graphmem export and stats find a tenant's FactState nodes by this index (they hang off an owner
// otherwise; an export reads every label by a tenant seek).
CREATE INDEX fact_state_by_tenant IF NOT EXISTS FOR (f:FactState) ON (f.tenant)
