// get_observations: the memories asked for, and their usage metadata (not history: no
// revision, no tenant lock). The counters move only when every id is found (a call that is
// not_found counts nothing); ids in order, so concurrent readers lock nodes in one order.
// Outside the tenant's lock: each memory's lock is taken first and the memory looked at again
// under it, so one an erasure tombstoned meanwhile is not found (and gets no counter).
UNWIND $ids AS id
WITH id ORDER BY id
MATCH (m:Memory {tenant: $tenant, id: id})
SET m._lock = true
REMOVE m._lock
WITH m
WHERE m:Memory
WITH collect(m) AS found
CALL (found) {
  WITH found WHERE size(found) = size($ids)
  UNWIND found AS m
  SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = datetime($now)
}
UNWIND found AS m
RETURN m AS memory
