// A clarification question by id within its tenant.
CREATE CONSTRAINT question_id_unique IF NOT EXISTS
FOR (q:Question) REQUIRE (q.tenant, q.id) IS UNIQUE
