// Facts promoted from claims by (project, subject, predicate): promote_candidate finds the live
// facts a single-valued triple contradicts by index seek (facts without a triple are not indexed).
CREATE INDEX fact_by_triple_subject IF NOT EXISTS
FOR (f:Fact) ON (f.tenant, f.project, f.subject_norm, f.predicate)
