// What one subjects pass resolved: new subjects, new spellings (aliases) with the keys they are
// found by, each mention (from its source to its subject and spelling), the questions for a
// person, and the sources read (no longer Unread, unless its text changed since it was read:
// its stamp, a memory's version or a chunk's source hash, differs, and the next pass reads it
// again). All of it or none: one transaction, the sources locked first (lock_read_sources).
// A source read again (a chunk whose body
// an answer changed) has its mentions follow its text: the mentions it held before are
// replaced by this pass's, and what only they held goes as an erasure would take it (a
// spelling no mention carries, with its keys; a subject no mention names that no merge
// involves, with its questions); a spelling or subject kept says what a surviving mention says.
CALL () {
  UNWIND $read AS item
  MATCH (n:Unread {tenant: $tenant, id: item.id})
  WITH n, item, CASE WHEN n:Memory THEN coalesce(toString(n.version), '')
                     WHEN n:Chunk THEN coalesce(n.source_hash, '') ELSE '' END AS stamp
  FOREACH (_ IN CASE WHEN stamp = item.stamp THEN [1] ELSE [] END | REMOVE n:Unread)
  WITH n
  OPTIONAL MATCH (n)-[:HAS_MENTION]->(old:Mention)
  RETURN collect(old) AS stale
}
CALL () {
  UNWIND $subjects AS item
  CREATE (:Subject {tenant: $tenant, id: item.id, kind: item.kind, name: item.name,
                    created_at: datetime($now), updated_at: datetime($now)})
}
CALL () {
  UNWIND $aliases AS item
  MATCH (s:Subject {tenant: $tenant, id: item.subject_id})
  SET s.kind = coalesce(s.kind, item.kind), s.updated_at = datetime($now)
  CREATE (s)<-[:OF]-(a:Alias {tenant: $tenant, id: item.id, subject_id: s.id,
                              written: item.written, normal: item.normal,
                              created_at: datetime($now)})
  WITH a, item
  UNWIND item.keys AS key
  CREATE (a)<-[:KEYS]-(:SubjectKey {tenant: $tenant, id: key.id, key: key.key,
                                    subject_id: a.subject_id})
}
CALL () {
  UNWIND $mentions AS item
  MATCH (s:Subject {tenant: $tenant, id: item.subject_id})
  OPTIONAL MATCH (a:Alias {tenant: $tenant, id: item.alias_id})
  OPTIONAL MATCH (memory:Memory {tenant: $tenant, id: item.source_id})
  WHERE item.source_kind = 'memory'
  OPTIONAL MATCH (turn:Turn {tenant: $tenant, id: item.source_id})
  WHERE item.source_kind = 'turn'
  OPTIONAL MATCH (chunk:Chunk {tenant: $tenant, id: item.source_id})
  WHERE item.source_kind = 'chunk'
  OPTIONAL MATCH (claim:Claim {tenant: $tenant, id: item.source_id})
  WHERE item.source_kind = 'claim'
  WITH s, a, item, coalesce(memory, turn, chunk, claim) AS origin
  WHERE origin IS NOT NULL
  CREATE (origin)-[:HAS_MENTION]->(m:Mention {
    tenant: $tenant, id: item.id, subject_id: s.id, alias_id: a.id, source: item.source,
    source_kind: item.source_kind, source_id: item.source_id, written: item.written,
    evidence: item.evidence, at: datetime($now)
  })-[:NAMES]->(s)
  FOREACH (spelling IN CASE WHEN a IS NULL THEN [] ELSE [a] END | CREATE (m)-[:AS]->(spelling))
}
CALL () {
  UNWIND $questions AS item
  MATCH (mentioned:Subject {tenant: $tenant, id: item.subject_id})
  MATCH (candidate:Subject {tenant: $tenant, id: item.candidate_id})
  CREATE (q:SubjectQuestion {tenant: $tenant, id: item.id, status: 'open',
                             evidence: item.evidence, confidence: item.confidence,
                             asked_at: datetime($now)})
  CREATE (q)-[:ASKS_ABOUT {role: 'mentioned'}]->(mentioned)
  CREATE (q)-[:ASKS_ABOUT {role: 'candidate'}]->(candidate)
}
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
RETURN size($mentions) AS mentions
