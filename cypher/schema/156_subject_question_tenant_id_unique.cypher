// A question for a person: is this mention's subject the same as that one?
CREATE CONSTRAINT subject_question_tenant_id_unique IF NOT EXISTS
FOR (q:SubjectQuestion) REQUIRE (q.tenant, q.id) IS UNIQUE
