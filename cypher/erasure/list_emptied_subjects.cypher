// The names an erasure empties: the spellings (Alias) of the mentions it erases ($refs) that no
// mention outside it carries, with the keys they are found by; the subjects those mentions
// named that are left with no mention at all, unless other subjects were merged into one (a
// group's root stays, nameless: erasure/refresh_subject_names); the questions about subjects
// that go. A name is content: it goes with the last source (memory, turn, chunk, claim) that
// held it.
UNWIND $refs AS ref
MATCH (m:Mention)
WHERE elementId(m) = ref AND m.tenant = $tenant
OPTIONAL MATCH (m)-[:AS]->(a:Alias)
WHERE NOT EXISTS { MATCH (a)<-[:AS]-(other:Mention) WHERE NOT elementId(other) IN $refs }
OPTIONAL MATCH (m)-[:NAMES]->(s:Subject)
WHERE NOT EXISTS { MATCH (s)<-[:NAMES]-(other:Mention) WHERE NOT elementId(other) IN $refs }
  AND NOT EXISTS { (s)<-[:MERGED_INTO]-(:Subject) }
WITH collect(DISTINCT a) AS emptied, collect(DISTINCT s) AS gone
CALL (emptied, gone) {
  UNWIND emptied AS a
  RETURN elementId(a) AS ref, 'Alias' AS kind, a.id AS id
  UNION
  UNWIND emptied AS a
  MATCH (a)<-[:KEYS]-(k:SubjectKey)
  RETURN elementId(k) AS ref, 'SubjectKey' AS kind, k.id AS id
  UNION
  UNWIND gone AS s
  RETURN elementId(s) AS ref, 'Subject' AS kind, s.id AS id
  UNION
  UNWIND gone AS s
  MATCH (s)<-[:ASKS_ABOUT]-(q:SubjectQuestion)
  RETURN elementId(q) AS ref, 'SubjectQuestion' AS kind, q.id AS id
}
RETURN ref, kind, id
