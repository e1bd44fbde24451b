// bench.scale: bulk-create archived sessions with their turns, shaped like archive_turns'
// writes (merge_raw_session, create_archived_turns, link_raw_turn_sequence and
// update_raw_session of one call per session): the session's window, count and folded content
// hash; each turn with its tenant-prefixed lexical tokens (the turn_lexical full-text index),
// HAS_TURN from its session and NEXT threading the session's turns in (ts, seq) order.
UNWIND $sessions AS row
CREATE (s:Session {
  tenant: $tenant, id: row.id, project: $project, source_root: 'bench', host: 'scale',
  session_ref: row.session_ref, message_count: size(row.turns),
  content_hash: row.content_hash, created_at: datetime(row.first_ts),
  first_ts: datetime(row.first_ts), last_ts: datetime(row.last_ts),
  updated_at: datetime(row.last_ts)
})
WITH s, row
CALL (s, row) {
  UNWIND row.turns AS turn
  CREATE (t:Turn {
    tenant: $tenant, id: turn.id, session_id: s.id, project: s.project, role: turn.role,
    content: turn.content, lexical: turn.lexical, ts: datetime(turn.ts), seq: turn.seq,
    content_hash: turn.content_hash, quarantined: false, quarantine_reasons: [],
    archived_at: datetime(row.last_ts)
  })
  SET t.embedding = turn.embedding
  CREATE (s)-[:HAS_TURN]->(t)
  WITH t ORDER BY t.seq
  RETURN collect(t) AS chain
}
CALL (chain) {
  UNWIND range(0, size(chain) - 2) AS i
  WITH chain[i] AS a, chain[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
RETURN count(*) AS created
