// audit_memory: open issues whose subject no longer shows the problem become resolved.
UNWIND $keys AS key
MATCH (i:Issue {tenant: $tenant, issue_type: key.issue_type, subject_kind: key.subject_kind,
                subject_ref: key.subject_ref})
WHERE i.status = 'open'
SET i.status = 'resolved', i.resolved_at = datetime($now), i.resolution = 'not_redetected'
RETURN i.id AS id
