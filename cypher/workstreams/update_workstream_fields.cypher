// update_workstream: set the changed fields (null parameters leave a field as it is);
// completed_at follows the status: set on becoming completed, cleared on leaving it.
MATCH (w:Workstream {tenant: $tenant, id: $id})
SET w.status = coalesce($status, w.status),
    w.next_action = coalesce($next_action, w.next_action),
    w.blockers = coalesce($blockers, w.blockers),
    w.progress = coalesce($progress, w.progress),
    w.updated_at = datetime($now),
    w.completed_at = CASE
      WHEN $status IS NULL THEN w.completed_at
      WHEN $status = 'completed' THEN coalesce(w.completed_at, datetime($now))
      ELSE null END
RETURN w AS workstream
