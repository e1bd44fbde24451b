// A subjects pass records what it resolved in one transaction (graphmem/subjects/reading.py),
// a statement per kind of record, each run only with something to record: new spellings
// (aliases) of subjects, with the keys they are found by.
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
