// bench.scale: bulk-create enrichable chunks shaped like add_context_chunk's.
UNWIND $chunks AS chunk
CREATE (:Chunk {
  tenant: $tenant, id: chunk.id, project: $project, body_hash: chunk.hash,
  source_hash: chunk.hash, title: null, body: chunk.body, origin: 'bench', session_id: null,
  workstream_id: null, state: 'enrichable', quarantined: false, quarantine_reasons: [],
  materiality: null, uncertainty: null, signals: [], created_at: datetime(chunk.at),
  updated_at: datetime(chunk.at), actor: null, client: null
})
RETURN count(*) AS created
