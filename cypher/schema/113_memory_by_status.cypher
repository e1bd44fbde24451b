// The Browser guide's "what is quarantined" seeks the quarantined memories.
CREATE INDEX memory_by_status IF NOT EXISTS FOR (m:Memory) ON (m.tenant, m.status)
