// get_observations: usage metadata of the memories returned (not history: no revision).
UNWIND $ids AS id
MATCH (m:Memory {tenant: $tenant, id: id})
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = datetime($now)
RETURN m AS memory
