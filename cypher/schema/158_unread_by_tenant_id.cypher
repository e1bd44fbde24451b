// A pass marks what it read by id (subjects/close_read_sources): a seek each, whatever the backlog.
CREATE INDEX unread_by_tenant_id IF NOT EXISTS FOR (n:Unread) ON (n.tenant, n.id)
