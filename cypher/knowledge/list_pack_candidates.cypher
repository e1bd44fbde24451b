// Candidates of a context pack (graphmem/knowledge/packs.py), every pool a top-k read in index
// order with a LIMIT, so the cost follows the pack's size, never the store's:
//   facts      active and not lapsed at $now: the most confident, and the newest ($fact_limit
//              each; 072, 073);
//   claims     candidates, most confident first ($claim_limit; 074), none evidenced by a
//              quarantined chunk;
//   questions  open, highest priority first ($question_limit; 075), none of a quarantined chunk;
//   chunks     enrichable, uncertain or awaiting_human, never quarantined: per state the most
//              material and the newest ($chunk_limit each; 076, 077);
//   linked     with $workstream_id: the workstream's newest $linked_limit chunks (078) that are
//              not quarantined, the packable ones among them, the candidate claims they
//              evidence and the live facts those claims were promoted to (linked: true).
// Index hints pin the ordered indexes (the planner would otherwise sort a whole state).
// Rows carry elementId for linking INCLUDES in the same transaction; timestamps as strings.
CALL () {
  OPTIONAL MATCH (k:Chunk)
  USING INDEX k:Chunk(tenant, workstream_id, updated_at)
  WHERE k.tenant = $tenant AND k.workstream_id = $workstream_id AND k.updated_at IS NOT NULL
    AND NOT coalesce(k.quarantined, false)
  WITH k ORDER BY k.tenant DESC, k.workstream_id DESC, k.updated_at DESC LIMIT $linked_limit
  RETURN collect(k) AS linked_chunks
}
RETURN COLLECT {
  MATCH (f:Fact)
  USING INDEX f:Fact(tenant, status, confidence)
  WHERE f.tenant = $tenant AND f.status = 'active' AND f.confidence IS NOT NULL
    AND coalesce(f.effective_until > datetime($now), true)
  WITH f ORDER BY f.tenant DESC, f.status DESC, f.confidence DESC LIMIT $fact_limit
  RETURN f {element_id: elementId(f), .id, .key, .value_json, .subject, .predicate, .object,
            .confidence, .source_class, .verification_status, .contradiction_count,
            recorded_at: toString(f.recorded_at), linked: false} AS item
  UNION
  MATCH (f:Fact)
  USING INDEX f:Fact(tenant, status, recorded_at)
  WHERE f.tenant = $tenant AND f.status = 'active' AND f.recorded_at IS NOT NULL
    AND coalesce(f.effective_until > datetime($now), true)
  WITH f ORDER BY f.tenant DESC, f.status DESC, f.recorded_at DESC LIMIT $fact_limit
  RETURN f {element_id: elementId(f), .id, .key, .value_json, .subject, .predicate, .object,
            .confidence, .source_class, .verification_status, .contradiction_count,
            recorded_at: toString(f.recorded_at), linked: false} AS item
  UNION
  UNWIND linked_chunks AS k
  MATCH (k)<-[:EVIDENCED_BY]-(c:Claim)-[:PROMOTED_TO]->(f:Fact)
  WHERE f.tenant = $tenant AND f.status = 'active'
    AND coalesce(f.effective_until > datetime($now), true)
  WITH DISTINCT f LIMIT $fact_limit
  RETURN f {element_id: elementId(f), .id, .key, .value_json, .subject, .predicate, .object,
            .confidence, .source_class, .verification_status, .contradiction_count,
            recorded_at: toString(f.recorded_at), linked: true} AS item
} AS facts,
COLLECT {
  MATCH (c:Claim)
  USING INDEX c:Claim(tenant, status, confidence)
  WHERE c.tenant = $tenant AND c.status = 'candidate' AND c.confidence IS NOT NULL
    AND NOT EXISTS { MATCH (c)-[:EVIDENCED_BY]->(q:Chunk) WHERE q.quarantined = true }
  WITH c ORDER BY c.tenant DESC, c.status DESC, c.confidence DESC LIMIT $claim_limit
  RETURN c {element_id: elementId(c), .id, .subject, .predicate, .object, .scope,
            .confidence, .requires_human, .chunk_id, created_at: toString(c.created_at),
            linked: false} AS item
  UNION
  UNWIND linked_chunks AS k
  MATCH (k)<-[:EVIDENCED_BY]-(c:Claim)
  WHERE c.tenant = $tenant AND c.status = 'candidate'
    AND NOT EXISTS { MATCH (c)-[:EVIDENCED_BY]->(q:Chunk) WHERE q.quarantined = true }
  WITH DISTINCT c LIMIT $claim_limit
  RETURN c {element_id: elementId(c), .id, .subject, .predicate, .object, .scope,
            .confidence, .requires_human, .chunk_id, created_at: toString(c.created_at),
            linked: true} AS item
} AS claims,
COLLECT {
  MATCH (q:Question)
  USING INDEX q:Question(tenant, status, priority)
  WHERE q.tenant = $tenant AND q.status = 'open' AND q.priority IS NOT NULL
    AND NOT EXISTS { MATCH (k:Chunk)-[:HAS_QUESTION]->(q) WHERE k.quarantined = true }
  WITH q ORDER BY q.tenant DESC, q.status DESC, q.priority DESC LIMIT $question_limit
  RETURN q {element_id: elementId(q), .id, .text, .type, .priority, .chunk_id,
            created_at: toString(q.created_at), linked: false} AS item
} AS questions,
COLLECT {
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, materiality)
  WHERE c.tenant = $tenant AND c.state = 'enrichable' AND c.materiality IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant DESC, c.state DESC, c.materiality DESC LIMIT $chunk_limit
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: false} AS item
  UNION
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, materiality)
  WHERE c.tenant = $tenant AND c.state = 'uncertain' AND c.materiality IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant DESC, c.state DESC, c.materiality DESC LIMIT $chunk_limit
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: false} AS item
  UNION
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, materiality)
  WHERE c.tenant = $tenant AND c.state = 'awaiting_human' AND c.materiality IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant DESC, c.state DESC, c.materiality DESC LIMIT $chunk_limit
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: false} AS item
  UNION
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE c.tenant = $tenant AND c.state = 'enrichable' AND c.updated_at IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant DESC, c.state DESC, c.updated_at DESC LIMIT $chunk_limit
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: false} AS item
  UNION
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE c.tenant = $tenant AND c.state = 'uncertain' AND c.updated_at IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant DESC, c.state DESC, c.updated_at DESC LIMIT $chunk_limit
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: false} AS item
  UNION
  MATCH (c:Chunk)
  USING INDEX c:Chunk(tenant, state, updated_at)
  WHERE c.tenant = $tenant AND c.state = 'awaiting_human' AND c.updated_at IS NOT NULL
    AND NOT coalesce(c.quarantined, false)
  WITH c ORDER BY c.tenant DESC, c.state DESC, c.updated_at DESC LIMIT $chunk_limit
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: false} AS item
  UNION
  UNWIND linked_chunks AS c
  WITH c WHERE c.state IN ['enrichable', 'uncertain', 'awaiting_human']
  RETURN c {element_id: elementId(c), .id, .title, body: left(c.body, $body_chars), .state,
            .materiality, .workstream_id, updated_at: toString(c.updated_at),
            linked: true} AS item
} AS chunks
