// save_memory and govern_memory (release): the new version supersedes the active one, which
// becomes stale (kept, linked, retired now).
MATCH (new:Memory {tenant: $tenant, id: $new_id})
MATCH (old:Memory {tenant: $tenant, id: $old_id})
SET old.status = 'stale', old.retired_at = datetime($now), old.updated_at = datetime($now),
    old.superseded_by = new.id, old.version = old.version + 1,
    old.status_reason = 'superseded by a newer version of the topic'
CREATE (new)-[:SUPERSEDES {at: datetime($now), revision: $revision}]->(old)
RETURN old AS memory
