// graphmem export and stats find a tenant's Answer nodes by this index (they hang off an owner
// otherwise; an export reads every label by a tenant seek).
CREATE INDEX answer_by_tenant IF NOT EXISTS FOR (a:Answer) ON (a.tenant)
