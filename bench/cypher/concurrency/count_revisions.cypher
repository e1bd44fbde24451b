// bench.concurrency's gap check: a tenant's history events, their first and last revision
// and how many distinct revisions they hold (gap-free: all three agree).
MATCH (e:Event {tenant: $tenant})
RETURN count(e) AS events, min(e.revision) AS first, max(e.revision) AS last,
       count(DISTINCT e.revision) AS distinct
