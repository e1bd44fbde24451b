// Audit issues of one status by last detection: list_memory_issues (newest first) and
// audit_memory's re-check of open issues (least recently seen first), in index order.
CREATE INDEX issue_by_status_detected IF NOT EXISTS
FOR (i:Issue) ON (i.tenant, i.status, i.last_detected_at)
