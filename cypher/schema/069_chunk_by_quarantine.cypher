// Quarantined chunks in id order (audit_memory lists them as quarantined_content issues).
CREATE INDEX chunk_by_quarantine IF NOT EXISTS FOR (c:Chunk) ON (c.tenant, c.quarantined, c.id)
