// save_memory: a quarantined memory is listed as an open issue (list_memory_issues) at once,
// in the same transaction; govern_memory resolves it. audit_memory does not re-check it.
MERGE (i:Issue {tenant: $tenant, issue_type: 'quarantined_memory', subject_kind: 'memory',
                subject_ref: $memory_id})
  ON CREATE SET i.id = $id, i.first_detected_at = datetime($now), i.reopened_count = 0
SET i.severity = 'medium', i.details_json = $details_json, i.status = 'open',
    i.last_detected_at = datetime($now), i.resolution = null, i.resolved_at = null
RETURN i.id AS id
