// The current packs of one kind and target (scope_key: the workstream id, or '*' unscoped):
// a new pack retires them by index seek.
CREATE INDEX pack_by_scope IF NOT EXISTS FOR (p:Pack) ON (p.tenant, p.pack_type, p.scope_key, p.status)
