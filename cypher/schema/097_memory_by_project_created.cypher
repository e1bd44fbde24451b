// context_bundle as of a past instant and timeline_report: a project's memories by creation.
CREATE INDEX memory_by_project_created IF NOT EXISTS
FOR (m:Memory) ON (m.tenant, m.project, m.created_at)
