// audit_memory: the subjects of one scan's open issues ($types), least recently detected
// first, to re-check them (an open issue whose subject no longer shows the problem is resolved).
MATCH (i:Issue)
WHERE i.tenant = $tenant AND i.status = 'open' AND i.last_detected_at IS NOT NULL
  AND i.issue_type IN $types
WITH i ORDER BY i.tenant, i.status, i.last_detected_at, i.id LIMIT $limit
RETURN i.issue_type AS issue_type, i.subject_ref AS subject_ref
