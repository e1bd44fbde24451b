// record_human_answer: append the (screened) answer to the chunk's body with a fresh
// source_hash (body_hash, the dedupe key of the original body, is kept), set its state and
// quarantine, record the Answer with (chunk)-[:HAS_ANSWER]->(a), and mark the addressed open
// questions answered with (q)-[:ANSWERED_BY]->(a). The chunk is Unread again: its mentions of
// subjects follow its new body (or go, when the answer quarantines it;
// subjects/drop_stale_mentions).
MATCH (c:Chunk {tenant: $tenant, id: $chunk_id})
CREATE (c)-[:HAS_ANSWER {at: datetime($now)}]->(a:Answer {
  id: $answer_id, tenant: $tenant, chunk_id: c.id, text: $text, question_ids: $question_ids,
  source_hash_before: c.source_hash, source_hash_after: $source_hash,
  redactions: $redactions, quarantine_reasons: $new_reasons, created_at: datetime($now),
  session_id: $session_id, actor: $actor, client: $client
})
SET c.body = $body, c.source_hash = $source_hash, c.state = $state,
    c.quarantined = $quarantined, c.quarantine_reasons = $quarantine_reasons,
    c.updated_at = datetime($now), c.answered_at = datetime($now), c:Unread
WITH c, a
CALL (c, a) {
  UNWIND $question_ids AS question_id
  MATCH (c)-[:HAS_QUESTION]->(q:Question {id: question_id})
  WHERE q.status = 'open'
  SET q.status = 'answered', q.answered_at = datetime($now), q.updated_at = datetime($now),
      q.answer = $text, q.answer_id = a.id
  CREATE (q)-[:ANSWERED_BY {at: datetime($now)}]->(a)
  RETURN collect(q.id) AS answered
}
RETURN c AS chunk, answered,
       COUNT { (c)-[:HAS_QUESTION]->(open:Question) WHERE open.status = 'open' } AS remaining
