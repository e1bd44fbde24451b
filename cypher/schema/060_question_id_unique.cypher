// Clarification question ids are server-generated and unique (as fact, chunk and claim ids);
// lookups reach a question from its chunk and add the tenant as a filter.
CREATE CONSTRAINT question_id_unique IF NOT EXISTS FOR (q:Question) REQUIRE q.id IS UNIQUE
