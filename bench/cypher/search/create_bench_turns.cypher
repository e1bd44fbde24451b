// Bench setup only: sessions of archived turns in one project, with the lexical tokens and
// vectors the product computes, threaded by NEXT as archive_turns threads them (bulk, so 10^5
// turns load in minutes).
UNWIND $sessions AS session
CREATE (s:Session {
  tenant: $tenant, id: session.id, project: $project, source_root: 'bench', host: 'bench',
  session_ref: session.id, message_count: size(session.turns),
  next_seq: size(session.turns), created_at: datetime(session.turns[0].ts)
})
WITH s, session
UNWIND range(0, size(session.turns) - 1) AS seq
WITH s, seq, session.turns[seq] AS row
CREATE (t:Turn {
  tenant: $tenant, id: row.id, session_id: s.id, project: $project, role: row.role,
  content: row.content, lexical: row.lexical, ts: datetime(row.ts), seq: seq,
  content_hash: row.id, quarantined: false, quarantine_reasons: [],
  archived_at: datetime(row.ts), archived_revision: 0, embedding_model: row.model
})
SET t.embedding = row.embedding
CREATE (s)-[:HAS_TURN]->(t)
WITH s, collect(t) AS turns
CALL (turns) {
  UNWIND range(0, size(turns) - 2) AS i
  WITH turns[i] AS a, turns[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
RETURN count(s) AS created
