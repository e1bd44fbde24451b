// The memories and turns whose subjects were not read yet, per tenant (subjects/list_unread).
CREATE INDEX unread_by_tenant IF NOT EXISTS FOR (n:Unread) ON (n.tenant)
