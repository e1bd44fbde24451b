// A tenant's run-history entries by time: `graphmem stats` and graphmem://stats count them by
// index seek (run_by_subject misses the runs without a subject, e.g. enrich_context's).
CREATE INDEX run_by_tenant_at IF NOT EXISTS FOR (r:Run) ON (r.tenant, r.at)
