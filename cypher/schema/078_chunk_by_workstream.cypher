// Task-scoped packs: a workstream's chunks, newest first.
CREATE INDEX chunk_by_workstream IF NOT EXISTS FOR (c:Chunk) ON (c.tenant, c.workstream_id, c.updated_at)
