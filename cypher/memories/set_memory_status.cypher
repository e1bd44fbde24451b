// govern_memory: move one memory to a new status, if its version is still the expected one.
// A memory that leaves active is retired now; a released one becomes active now.
MATCH (m:Memory {tenant: $tenant, id: $id})
WHERE m.version = $expected_version
SET m.retired_at = CASE
      WHEN m.status = 'active' AND $status <> 'active' THEN datetime($now)
      ELSE m.retired_at END,
    m.active_from = CASE WHEN $status = 'active' THEN datetime($now) ELSE m.active_from END,
    m.status = $status, m.status_reason = $reason, m.updated_at = datetime($now),
    m.version = m.version + 1, m.revision = $revision
RETURN m AS memory
