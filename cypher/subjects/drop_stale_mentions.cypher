// A source read again (a chunk whose body an answer changed) has its mentions follow its text:
// those it held before this pass ($stale, read by lock_read_sources, run only when there are
// any) go, and what only they held goes as an erasure would take it (a spelling no mention
// carries, with its keys; a subject no mention names that no merge involves, with its
// questions); a spelling or subject kept says what a surviving mention says. Run before
// close_read_sources, while the sources are still Unread.
UNWIND $ids AS id
MATCH (n:Unread {tenant: $tenant, id: id})-[:HAS_MENTION]->(old:Mention)
WHERE old.id IN $stale
WITH collect(old) AS stale
CALL (stale) {
  UNWIND stale AS old
  OPTIONAL MATCH (old)-[:AS]->(a:Alias)
  OPTIONAL MATCH (old)-[:NAMES]->(s:Subject)
  DETACH DELETE old
  WITH collect(DISTINCT a) AS aliases, collect(DISTINCT s) AS subjects
  CALL (aliases) {
    UNWIND aliases AS a
    OPTIONAL MATCH (a)<-[:AS]-(m:Mention)
    WITH a, m ORDER BY m.at, m.id
    WITH a, collect(m.written) AS written
    CALL (a, written) {
      WITH a, written WHERE written = []
      OPTIONAL MATCH (a)<-[:KEYS]-(k:SubjectKey)
      DETACH DELETE k, a
    }
    CALL (a, written) {
      WITH a, written WHERE written <> []
      SET a.written = written[0]
    }
  }
  CALL (subjects) {
    UNWIND subjects AS s
    WITH s, NOT EXISTS { (s)<-[:NAMES]-(:Mention) } AND NOT EXISTS { (s)-[:MERGED_INTO]-() }
            AS gone
    CALL (s, gone) {
      WITH s WHERE gone
      OPTIONAL MATCH (s)<-[:ASKS_ABOUT]-(q:SubjectQuestion)
      DETACH DELETE q, s
    }
    CALL (s, gone) {
      WITH s WHERE NOT gone
      OPTIONAL MATCH (s)<-[:OF]-(a:Alias)
      WITH s, a ORDER BY a.created_at, a.id
      WITH s, collect(a.written)[0] AS first
      SET s.name = coalesce(first, '')
    }
  }
}
