// Chunks of a tenant by lifecycle state (enrich_context, packs) without a label scan.
CREATE INDEX chunk_by_state IF NOT EXISTS FOR (c:Chunk) ON (c.tenant, c.state)
