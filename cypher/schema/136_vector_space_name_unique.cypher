// The one record of the database's embedding model (graphmem/retrieval/vector_space.py).
CREATE CONSTRAINT vector_space_name_unique IF NOT EXISTS
FOR (space:VectorSpace) REQUIRE space.name IS UNIQUE
