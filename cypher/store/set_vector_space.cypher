// Record the embedding model of this database's vectors: by the first server that embeds, or
// by `graphmem embeddings backfill` once every vector is the configured model's.
// Database-wide, like the schema: the vector indexes are shared by every tenant.
MERGE (space:VectorSpace {name: 'search'})
SET space.model = $model, space.dimensions = $dimensions, space.recorded_at = datetime()
RETURN space.model AS model, space.dimensions AS dimensions
