// Store a chunk of raw context; the same body (after redaction) in the same project returns
// the existing chunk. Its initial state comes from its markers (graphmem/knowledge/heuristics.py).
// A new chunk is Unread: the subjects its body names are read behind the write
// (graphmem/subjects/reading.py); an existing one is returned as it was.
MERGE (c:Chunk {tenant: $tenant, project: $project, body_hash: $body_hash})
  ON CREATE SET c.id = $id, c.title = $title, c.body = $body, c.origin = $origin,
                c.session_id = $session_id, c.workstream_id = $workstream_id,
                c.source_hash = $body_hash, c.state = $state, c.quarantined = $quarantined,
                c.quarantine_reasons = $quarantine_reasons, c.materiality = null,
                c.uncertainty = null, c.signals = [], c.created_at = datetime($now),
                c.updated_at = datetime($now), c.actor = $actor, c.client = $client,
                c:Unread
RETURN c AS chunk, c.id = $id AS created
