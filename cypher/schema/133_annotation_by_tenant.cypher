// graphmem export and stats find a tenant's Annotation nodes by this index (they hang off an owner
// otherwise; an export reads every label by a tenant seek).
CREATE INDEX annotation_by_tenant IF NOT EXISTS FOR (a:Annotation) ON (a.tenant)
