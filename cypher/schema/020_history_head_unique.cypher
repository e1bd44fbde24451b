// The head of a tenant's history: revision counter and last event hash, locked per write.
CREATE CONSTRAINT history_head_unique IF NOT EXISTS FOR (h:History) REQUIRE h.tenant IS UNIQUE
