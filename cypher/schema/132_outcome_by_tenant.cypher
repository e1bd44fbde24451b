// graphmem export and stats find a tenant's Outcome nodes by this index (they hang off an owner
// otherwise; an export reads every label by a tenant seek).
CREATE INDEX outcome_by_tenant IF NOT EXISTS FOR (o:Outcome) ON (o.tenant)
