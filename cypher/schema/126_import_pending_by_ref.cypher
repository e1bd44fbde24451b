// graphmem import links relationships by the file's node references (empty outside an import).
CREATE INDEX import_pending_by_ref IF NOT EXISTS FOR (n:ImportPending) ON (n.tenant, n.import_ref)
