// search's vector channel over raw turns (all-MiniLM-L6-v2, 384 dimensions, unit vectors),
// filled at write time when GRAPHMEM_EMBEDDINGS is set.
CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (t:Turn) ON (t.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
