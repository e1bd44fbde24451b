// Sources written before subjects were read (or imported without their mentions and marks) are
// found once, in id order, a batch per pass: each one with no mention and not already Unread
// becomes Unread. The ledger keeps where each walk is (backlog_memory, backlog_turn,
// backlog_chunk, backlog_claim) and, once its walks reach the end, that they are done:
// backlog_done for memories and turns, knowledge_backlog_done for chunks and claims (read since
// later: a ledger whose first walks were done before walks its chunks and claims then). A walk
// that is done seeks past every id ('\uFFFF'): from its cursor it would read every source
// written since.
MATCH (l:SubjectLedger {tenant: $tenant})
WHERE l.backlog_done IS NULL OR l.knowledge_backlog_done IS NULL
CALL (l) {
  MATCH (m:Memory) USING INDEX m:Memory(tenant, id)
  WHERE m.tenant = $tenant
    AND m.id > CASE WHEN l.backlog_done THEN '\uFFFF' ELSE coalesce(l.backlog_memory, '') END
  WITH m ORDER BY m.tenant, m.id LIMIT $limit
  FOREACH (_ IN CASE WHEN NOT m:Unread AND NOT EXISTS { (m)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET m:Unread)
  RETURN count(m) AS memories, max(m.id) AS last_memory
}
CALL (l) {
  MATCH (t:Turn) USING INDEX t:Turn(tenant, id)
  WHERE t.tenant = $tenant
    AND t.id > CASE WHEN l.backlog_done THEN '\uFFFF' ELSE coalesce(l.backlog_turn, '') END
  WITH t ORDER BY t.tenant, t.id LIMIT $limit
  FOREACH (_ IN CASE WHEN NOT t:Unread AND NOT EXISTS { (t)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET t:Unread)
  RETURN count(t) AS turns, max(t.id) AS last_turn
}
CALL (l) {
  MATCH (c:Chunk) USING INDEX c:Chunk(tenant, id)
  WHERE c.tenant = $tenant
    AND c.id > CASE WHEN l.knowledge_backlog_done THEN '\uFFFF' ELSE coalesce(l.backlog_chunk, '') END
  WITH c ORDER BY c.tenant, c.id LIMIT $limit
  FOREACH (_ IN CASE WHEN NOT c:Unread AND NOT EXISTS { (c)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET c:Unread)
  RETURN count(c) AS chunks, max(c.id) AS last_chunk
}
CALL (l) {
  MATCH (cl:Claim) USING INDEX cl:Claim(tenant, id)
  WHERE cl.tenant = $tenant
    AND cl.id > CASE WHEN l.knowledge_backlog_done THEN '\uFFFF' ELSE coalesce(l.backlog_claim, '') END
  WITH cl ORDER BY cl.tenant, cl.id LIMIT $limit
  FOREACH (_ IN CASE WHEN NOT cl:Unread AND NOT EXISTS { (cl)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET cl:Unread)
  RETURN count(cl) AS claims, max(cl.id) AS last_claim
}
SET l.backlog_memory = coalesce(last_memory, l.backlog_memory),
    l.backlog_turn = coalesce(last_turn, l.backlog_turn),
    l.backlog_chunk = coalesce(last_chunk, l.backlog_chunk),
    l.backlog_claim = coalesce(last_claim, l.backlog_claim),
    l.backlog_done = coalesce(l.backlog_done,
                              CASE WHEN memories < $limit AND turns < $limit THEN true END),
    l.knowledge_backlog_done = coalesce(l.knowledge_backlog_done,
                                        CASE WHEN chunks < $limit AND claims < $limit
                                             THEN true END)
RETURN memories + turns + chunks + claims AS walked
