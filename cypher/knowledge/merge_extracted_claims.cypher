// extract_candidate_claims: one claim per normalised triple and project (the uniqueness
// constraint on (tenant, project, triple_key) makes MERGE find an existing claim whatever its
// status; a new one is a candidate), and the chunk linked as its evidence once. Per triple:
// the claim, whether it was created, whether this chunk was newly linked, its evidence count.
// A new claim is Unread: the subjects its statement names are read behind the write
// (graphmem/subjects/reading.py); a claim's statement never changes after.
MATCH (c:Chunk {tenant: $tenant, id: $chunk_id})
UNWIND $claims AS item
MERGE (cl:Claim {tenant: $tenant, project: c.project, triple_key: item.triple_key})
  ON CREATE SET cl.id = item.id, cl.chunk_id = c.id, cl.subject = item.subject,
                cl.predicate = item.predicate, cl.object = item.object,
                cl.subject_norm = item.subject_norm, cl.object_norm = item.object_norm,
                cl.scope = item.scope, cl.confidence = item.confidence,
                cl.requires_human = item.requires_human, cl.status = 'candidate',
                cl.created_at = datetime($now), cl.updated_at = datetime($now), cl:Unread
WITH c, item, cl, cl.id = item.id AS created
OPTIONAL MATCH (cl)-[old:EVIDENCED_BY]->(c)
WITH c, item, cl, created, old IS NULL AS evidence_added
MERGE (cl)-[e:EVIDENCED_BY]->(c)
  ON CREATE SET e.type = 'source_chunk', e.weight = 1.0, e.excerpt = item.excerpt,
                e.start = item.start, e.end = item.end, e.at = datetime($now)
RETURN cl {.id, .subject, .predicate, .object, .scope, .confidence, .requires_human,
           .status} AS claim,
       item.triple_key AS triple_key, created, evidence_added,
       e.excerpt AS excerpt, e.start AS start, e.end AS end,
       COUNT { (cl)-[:EVIDENCED_BY]->(:Chunk) } AS evidence_count
