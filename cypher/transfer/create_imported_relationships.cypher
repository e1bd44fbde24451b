// graphmem import: one batch of relationships between nodes this import created.
UNWIND $relationships AS row
MATCH (a:ImportPending {tenant: $tenant, import_ref: row.from_ref})
MATCH (b:ImportPending {tenant: $tenant, import_ref: row.to_ref})
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.properties
RETURN count(r) AS created
