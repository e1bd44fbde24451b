// assess_context: store a chunk's scores, markers and state (unchanged when no move is legal),
// record its signal / freeze notes as Annotation nodes, and remember the source hash a chunk
// entering awaiting_human waits on (a later assessment of the same source is skipped).
MATCH (c:Chunk {tenant: $tenant, id: $id})
SET c.state = $state, c.materiality = $materiality, c.uncertainty = $uncertainty,
    c.signals = $signals, c.last_assessed_at = datetime($now), c.updated_at = datetime($now),
    c.awaiting_source_hash = CASE WHEN $entered_awaiting THEN c.source_hash
                                  ELSE c.awaiting_source_hash END
FOREACH (note IN $annotations |
  CREATE (c)-[:HAS_ANNOTATION]->(:Annotation {
    tenant: $tenant, id: note.id, chunk_id: c.id, kind: note.kind, marker: note.marker,
    source_hash: c.source_hash, at: datetime($now)
  })
)
RETURN c AS chunk
