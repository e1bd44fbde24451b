// govern_memory: a quarantined memory that was released, rejected, deleted or made stale no
// longer waits for review: its open issue is resolved with the action taken.
MATCH (i:Issue {tenant: $tenant, issue_type: 'quarantined_memory', subject_kind: 'memory',
                subject_ref: $memory_id})
WHERE i.status = 'open'
SET i.status = 'resolved', i.resolved_at = datetime($now), i.resolution = $resolution
RETURN i.id AS id
