// Resolution finds a mention's candidates by its keys (normal form, first and last word,
// initials): an index seek per key, never a scan of the tenant's subjects.
CREATE INDEX subject_key_by_tenant_key IF NOT EXISTS FOR (k:SubjectKey) ON (k.tenant, k.key)
