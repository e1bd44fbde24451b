// Context packs: a tenant's open clarification questions, highest priority first.
CREATE INDEX question_by_status_priority IF NOT EXISTS FOR (q:Question) ON (q.tenant, q.status, q.priority)
