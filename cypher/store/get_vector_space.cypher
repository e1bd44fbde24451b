// The embedding model whose vectors this database holds (graphmem/retrieval/vector_space.py).
// Database-wide, like the schema: the vector indexes are shared by every tenant.
MATCH (space:VectorSpace {name: 'search'})
RETURN space.model AS model, space.dimensions AS dimensions
