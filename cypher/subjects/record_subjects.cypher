// What one subjects pass resolved: new subjects, new spellings (aliases) with the keys they are
// found by, each mention (from its source to its subject and spelling), the questions for a
// person, and the sources read (no longer Unread). All of it or none: one transaction. The
// sources are locked first, in id order ($read is sorted), as the search fields' batches lock
// them: the two wait for each other, never in a circle.
CALL () {
  UNWIND $read AS id
  MATCH (n:Unread {tenant: $tenant, id: id})
  REMOVE n:Unread
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
  WITH s, a, item, coalesce(memory, turn) AS origin
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
RETURN size($mentions) AS mentions
