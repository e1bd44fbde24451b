// maintain finds facts past their boundary by range seek; facts without one are not indexed.
CREATE INDEX fact_by_expiry IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.effective_until)
