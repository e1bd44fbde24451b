// Context packs: a tenant's active facts, most confident first, read in index order with a
// LIMIT (top-k, never a scan of every fact).
CREATE INDEX fact_by_status_confidence IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.status, f.confidence)
