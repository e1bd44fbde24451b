// audit_memory: the subjects of one scan's open issues ($types) to re-check them (an open issue
// whose subject no longer shows the problem is resolved): per type the $limit least recently
// detected, each type bounded on its own so one type's backlog never crowds out another's
// (a seek per type on issue_by_type_detected, in index order: reads at most $limit each).
UNWIND $types AS type
CALL (type) {
  MATCH (i:Issue)
  USING INDEX i:Issue(tenant, status, issue_type, last_detected_at)
  WHERE i.tenant = $tenant AND i.status = 'open' AND i.last_detected_at IS NOT NULL
    AND i.issue_type = type
  WITH i ORDER BY i.tenant, i.status, i.issue_type, i.last_detected_at, i.id LIMIT $limit
  RETURN i.subject_ref AS subject_ref
}
RETURN type AS issue_type, subject_ref
