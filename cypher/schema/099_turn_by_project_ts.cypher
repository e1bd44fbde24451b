// search's exact vector scan and timeline: one project's turns by time.
CREATE INDEX turn_by_project_ts IF NOT EXISTS FOR (t:Turn) ON (t.tenant, t.project, t.ts)
