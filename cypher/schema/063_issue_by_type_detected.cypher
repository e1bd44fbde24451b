// audit_memory's re-check of open issues, per issue type least recently seen first: a seek
// per type in index order, so a large backlog of one type costs nothing to another's read.
CREATE INDEX issue_by_type_detected IF NOT EXISTS
FOR (i:Issue) ON (i.tenant, i.status, i.issue_type, i.last_detected_at)
