// An erasure finds the audit issues about what it erases by their subject.
CREATE INDEX issue_by_subject IF NOT EXISTS FOR (i:Issue) ON (i.tenant, i.subject_ref)
