// get_observations: usage metadata of the memories returned (not history: no revision, no
// tenant lock). Ids in order, so concurrent readers lock the same nodes in the same order.
UNWIND $ids AS id
WITH id ORDER BY id
MATCH (m:Memory {tenant: $tenant, id: id})
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = datetime($now)
RETURN m AS memory
