// The names an erasure empties: the spellings (Alias) of the mentions it erases ($refs) that no
// mention outside it carries, with the keys they are found by; the subjects left with no
// spelling; the questions about those subjects. A name is content: it goes with the last
// memory or turn that held it.
UNWIND $refs AS ref
MATCH (m:Mention)-[:AS]->(a:Alias)
WHERE elementId(m) = ref AND m.tenant = $tenant
WITH DISTINCT a
WHERE NOT EXISTS { MATCH (a)<-[:AS]-(other:Mention) WHERE NOT elementId(other) IN $refs }
WITH collect(a) AS emptied
CALL (emptied) {
  UNWIND emptied AS a
  RETURN elementId(a) AS ref, 'Alias' AS kind, a.id AS id
  UNION
  UNWIND emptied AS a
  MATCH (a)<-[:KEYS]-(k:SubjectKey)
  RETURN elementId(k) AS ref, 'SubjectKey' AS kind, k.id AS id
  UNION
  UNWIND emptied AS a
  MATCH (a)-[:OF]->(s:Subject)
  WHERE NOT EXISTS { MATCH (s)<-[:OF]-(kept:Alias) WHERE NOT kept IN emptied }
    AND NOT EXISTS { MATCH (s)<-[:NAMES]-(m:Mention) WHERE NOT elementId(m) IN $refs }
  CALL (s) {
    RETURN s AS gone
    UNION
    MATCH (s)<-[:ASKS_ABOUT]-(q:SubjectQuestion)
    RETURN q AS gone
  }
  RETURN elementId(gone) AS ref, [l IN labels(gone) WHERE l IN ['Subject', 'SubjectQuestion']][0] AS kind,
         gone.id AS id
}
RETURN ref, kind, id
