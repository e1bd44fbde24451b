// audit_memory: remember where each scan stopped and when the audit ran.
MATCH (:History {tenant: $tenant})-[:HAS_AUDIT_STATE]->(s:AuditState)
SET s.cursors_json = $cursors_json, s.last_run_at = datetime($now),
    s.last_run_id = coalesce($run_id, s.last_run_id)
RETURN s.last_run_at AS last_run_at
