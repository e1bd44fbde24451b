// Context packs and enrich_context: a tenant's active facts, newest first, in index order.
CREATE INDEX fact_by_status_recorded IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.status, f.recorded_at)
