// A subjects pass records what it resolved in one transaction (graphmem/subjects/reading.py),
// a statement per kind of record, each run only with something to record: new subjects.
UNWIND $subjects AS item
CREATE (:Subject {tenant: $tenant, id: item.id, kind: item.kind, name: item.name,
                  created_at: datetime($now), updated_at: datetime($now)})
