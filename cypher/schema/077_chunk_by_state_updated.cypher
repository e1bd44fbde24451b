// Chunks of one lifecycle state by last change: context packs take the newest, enrich_context
// assesses the longest untouched first.
CREATE INDEX chunk_by_state_updated IF NOT EXISTS FOR (c:Chunk) ON (c.tenant, c.state, c.updated_at)
