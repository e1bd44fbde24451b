// list_memory_issues: issues of one status, most recently detected first (index order), and
// when audit_memory last ran. Instants as ISO strings (cheaper to decode in bulk).
CALL () {
  MATCH (i:Issue)
  WHERE i.tenant = $tenant AND i.status = $status AND i.last_detected_at IS NOT NULL
  WITH i ORDER BY i.tenant DESC, i.status DESC, i.last_detected_at DESC, i.id DESC LIMIT $limit
  RETURN collect(i {
    .id, .issue_type, .severity, .subject_kind, .subject_ref, .details_json, .status,
    .resolution, first_detected_at: toString(i.first_detected_at),
    last_detected_at: toString(i.last_detected_at), resolved_at: toString(i.resolved_at)
  }) AS issues
}
OPTIONAL MATCH (:History {tenant: $tenant})-[:HAS_AUDIT_STATE]->(s:AuditState)
RETURN issues, toString(s.last_run_at) AS last_audit_at
