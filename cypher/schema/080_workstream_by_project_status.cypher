// workstreams: a project's workstreams (optionally of some statuses), newest update first.
CREATE INDEX workstream_by_project_status IF NOT EXISTS
FOR (w:Workstream) ON (w.tenant, w.project, w.status, w.updated_at)
