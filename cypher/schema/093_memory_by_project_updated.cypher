// search without a query, timeline and timeline_report: a project's memories by update time.
CREATE INDEX memory_by_project_updated IF NOT EXISTS
FOR (m:Memory) ON (m.tenant, m.project, m.updated_at)
