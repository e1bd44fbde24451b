// The Browser guide's "what is current in a project" seeks a project's keys.
CREATE INDEX fact_key_by_project IF NOT EXISTS FOR (k:FactKey) ON (k.tenant, k.project, k.key)
