// Context packs: chunks of one lifecycle state, most material first (assessed chunks only:
// a chunk without materiality is not in this index; 077 reaches it by recency).
CREATE INDEX chunk_by_state_materiality IF NOT EXISTS FOR (c:Chunk) ON (c.tenant, c.state, c.materiality)
