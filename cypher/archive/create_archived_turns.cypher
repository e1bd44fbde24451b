// archive_turns: store the new turns of one session in one statement (UNWIND batch), with
// their tenant-prefixed lexical tokens; with embeddings on, labelled Unembedded until their
// vector follows (write-behind: graphmem/retrieval/indexing.py). archived_revision is the
// call's event: what an actor's erasure selects them by.
MATCH (s:Session {tenant: $tenant, id: $session_id})
UNWIND $turns AS turn
CREATE (t:Turn:Unread {
  tenant: $tenant, id: turn.id, session_id: s.id, project: s.project, role: turn.role,
  content: turn.content, lexical: turn.lexical, ts: datetime(turn.ts), seq: turn.seq, content_hash: turn.content_hash,
  quarantined: turn.quarantined, quarantine_reasons: turn.quarantine_reasons,
  archived_at: datetime($now), archived_revision: $revision
})
FOREACH (_ IN CASE WHEN $vectors_follow THEN [1] ELSE [] END | SET t:Unembedded)
CREATE (s)-[:HAS_TURN]->(t)
RETURN count(t) AS created
