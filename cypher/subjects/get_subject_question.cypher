// A subject question as it stands, with the two subjects it asks about: the one a mention
// became and the candidate it may be (a person answers it: answer_subject_question).
MATCH (q:SubjectQuestion {tenant: $tenant, id: $id})
RETURN q.status AS status,
  COLLECT {
    MATCH (q)-[:ASKS_ABOUT {role: 'mentioned'}]->(s:Subject) RETURN s.id
  }[0] AS mentioned_id,
  COLLECT {
    MATCH (q)-[:ASKS_ABOUT {role: 'candidate'}]->(s:Subject) RETURN s.id
  }[0] AS candidate_id
