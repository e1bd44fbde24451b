// The live decisions of a tenant (review_decisions, maintain) without a label scan.
CREATE INDEX decision_by_status IF NOT EXISTS FOR (d:Decision) ON (d.tenant, d.status)
