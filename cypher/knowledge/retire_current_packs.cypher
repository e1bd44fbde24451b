// A new pack replaces the current packs of its kind and target (scope_key: workstream id or
// '*'): they become 'retired' (kept, never deleted), stamped retired_at and retired_by.
MATCH (p:Pack)
WHERE p.tenant = $tenant AND p.pack_type = $pack_type AND p.scope_key = $scope_key
  AND p.status = 'current'
SET p.status = 'retired', p.retired_at = datetime($now), p.retired_by = $pack_id
RETURN collect(p.id) AS retired_ids
