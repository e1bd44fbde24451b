// archive_turns: store the new turns of one session in one statement (UNWIND batch), with
// their tenant-prefixed lexical tokens and, when embeddings are on, their vector (stamped with
// its model). archived_revision is the call's event: what an actor's erasure selects them by.
MATCH (s:Session {tenant: $tenant, id: $session_id})
UNWIND $turns AS turn
CREATE (t:Turn {
  tenant: $tenant, id: turn.id, session_id: s.id, project: s.project, role: turn.role,
  content: turn.content, lexical: turn.lexical, ts: datetime(turn.ts), seq: turn.seq, content_hash: turn.content_hash,
  quarantined: turn.quarantined, quarantine_reasons: turn.quarantine_reasons,
  archived_at: datetime($now), archived_revision: $revision
})
SET t.embedding_model = turn.embedding_model
CREATE (s)-[:HAS_TURN]->(t)
WITH t, turn
CALL (t, turn) {  // float32, the procedure's compact form
  WITH t, turn WHERE turn.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(t, 'embedding', turn.embedding)
}
RETURN count(t) AS created
