// A subjects pass records what it resolved in one transaction (graphmem/subjects/reading.py),
// a statement per kind of record, each run only with something to record: the questions for
// a person (is this mention's subject that one?).
UNWIND $questions AS item
MATCH (mentioned:Subject {tenant: $tenant, id: item.subject_id})
MATCH (candidate:Subject {tenant: $tenant, id: item.candidate_id})
CREATE (q:SubjectQuestion {tenant: $tenant, id: item.id, status: 'open',
                           evidence: item.evidence, confidence: item.confidence,
                           asked_at: datetime($now)})
CREATE (q)-[:ASKS_ABOUT {role: 'mentioned'}]->(mentioned)
CREATE (q)-[:ASKS_ABOUT {role: 'candidate'}]->(candidate)
