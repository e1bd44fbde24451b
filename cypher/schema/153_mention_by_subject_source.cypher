// Co-occurrence: is a candidate subject already mentioned in the mention's own source (a
// memory, a session's turns)? An index seek per candidate and source.
CREATE INDEX mention_by_subject_source IF NOT EXISTS
FOR (m:Mention) ON (m.tenant, m.subject_id, m.source)
