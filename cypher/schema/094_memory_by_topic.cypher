// save_memory and current_state: the versions of one topic in one project.
CREATE INDEX memory_by_topic IF NOT EXISTS
FOR (m:Memory) ON (m.tenant, m.topic_key, m.project, m.topic_version)
