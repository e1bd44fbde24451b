// Test helper: a chunk's stored assessment and its annotations.
MATCH (k:Chunk {tenant: $tenant, id: $id})
RETURN k {.state, .materiality, .uncertainty, .signals, .awaiting_source_hash, .source_hash,
          last_assessed_at: toString(k.last_assessed_at)} AS chunk,
       [(k)-[:HAS_ANNOTATION]->(a:Annotation) | a {.kind, .marker, .source_hash}] AS annotations
