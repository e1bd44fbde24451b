// archive_turns: store the new turns of one session in one statement (UNWIND batch).
MATCH (s:Session {tenant: $tenant, id: $session_id})
UNWIND $turns AS turn
CREATE (t:Turn {
  tenant: $tenant, id: turn.id, session_id: s.id, project: s.project, role: turn.role,
  content: turn.content, ts: datetime(turn.ts), seq: turn.seq, content_hash: turn.content_hash,
  quarantined: turn.quarantined, quarantine_reasons: turn.quarantine_reasons,
  archived_at: datetime($now)
})
CREATE (s)-[:HAS_TURN]->(t)
RETURN count(t) AS created
