// search_raw ranks turns by Lucene (BM25) over their content. Full-text indexes are not
// partitioned by tenant: every query filters the hits on t.tenant = $tenant.
CREATE FULLTEXT INDEX turn_content_fulltext IF NOT EXISTS FOR (t:Turn) ON EACH [t.content]
