// govern_memory: move one memory to a new status, if its version is still the expected one.
// A memory that leaves active is retired now; a released one becomes active now. A memory
// released from quarantine ($reread) is Unread again: its text, withheld from the subjects
// pass while quarantined, is read now (graphmem/subjects/reading.py).
MATCH (m:Memory {tenant: $tenant, id: $id})
WHERE m.version = $expected_version
FOREACH (_ IN CASE WHEN $reread THEN [1] ELSE [] END | SET m:Unread)
SET m.retired_at = CASE
      WHEN m.status = 'active' AND $status <> 'active' THEN datetime($now)
      ELSE m.retired_at END,
    m.active_from = CASE WHEN $status = 'active' THEN datetime($now) ELSE m.active_from END,
    m.status = $status, m.status_reason = $reason, m.updated_at = datetime($now),
    m.version = m.version + 1, m.revision = $revision
RETURN m AS memory
