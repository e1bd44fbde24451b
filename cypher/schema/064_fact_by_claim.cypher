// Facts made from claims (claim_id set; other facts are not in this index): audit_memory checks
// their provenance in claim_id order from a cursor.
CREATE INDEX fact_by_claim IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.claim_id)
