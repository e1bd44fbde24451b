// Facts with open contradictions (contradiction_count > 0) by range seek: audit_memory checks
// their counts and unresolved pairs without reading every fact.
CREATE INDEX fact_by_contradiction_count IF NOT EXISTS
FOR (f:Fact) ON (f.tenant, f.contradiction_count)
