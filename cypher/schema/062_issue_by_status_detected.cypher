// Audit issues of one status by last detection: list_memory_issues (newest first), in index
// order (audit_memory's per-type re-check uses issue_by_type_detected).
CREATE INDEX issue_by_status_detected IF NOT EXISTS
FOR (i:Issue) ON (i.tenant, i.status, i.last_detected_at)
