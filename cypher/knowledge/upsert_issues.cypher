// audit_memory: record the issues of this run, one per (tenant, issue_type, subject_kind,
// subject_ref) (unique constraint). A resolved issue found again is re-opened; a repaired one
// is stored resolved (resolution 'repaired'). before: the status it had (null: created).
UNWIND $issues AS item
MERGE (i:Issue {tenant: $tenant, issue_type: item.issue_type, subject_kind: item.subject_kind,
                subject_ref: item.subject_ref})
  ON CREATE SET i.id = item.id, i.first_detected_at = datetime($now)
WITH i, item, i.status AS before
SET i.severity = item.severity, i.details_json = item.details_json, i.status = item.status,
    i.last_detected_at = datetime($now),
    i.resolution = CASE WHEN item.status = 'resolved' THEN 'repaired' END,
    i.resolved_at = CASE WHEN item.status = 'resolved' THEN datetime($now) END,
    i.reopened_count = coalesce(i.reopened_count, 0)
                       + CASE WHEN before = 'resolved' AND item.status = 'open' THEN 1 ELSE 0 END
RETURN i.id AS id, item.issue_type AS issue_type, item.subject_ref AS subject_ref, before
