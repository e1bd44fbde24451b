// Memories and turns written before subjects were read (or imported without their mentions
// and marks) are found once, in id order, a batch per pass: each one with no mention and not
// already Unread becomes Unread. The ledger keeps where the walk is (backlog_memory,
// backlog_turn) and, once both walks reach the end, that it is done (backlog_done).
MATCH (l:SubjectLedger {tenant: $tenant})
WHERE l.backlog_done IS NULL
CALL (l) {
  MATCH (m:Memory) USING INDEX m:Memory(tenant, id)
  WHERE m.tenant = $tenant AND m.id > coalesce(l.backlog_memory, '')
  WITH m ORDER BY m.tenant, m.id LIMIT $limit
  FOREACH (_ IN CASE WHEN NOT m:Unread AND NOT EXISTS { (m)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET m:Unread)
  RETURN count(m) AS memories, max(m.id) AS last_memory
}
CALL (l) {
  MATCH (t:Turn) USING INDEX t:Turn(tenant, id)
  WHERE t.tenant = $tenant AND t.id > coalesce(l.backlog_turn, '')
  WITH t ORDER BY t.tenant, t.id LIMIT $limit
  FOREACH (_ IN CASE WHEN NOT t:Unread AND NOT EXISTS { (t)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET t:Unread)
  RETURN count(t) AS turns, max(t.id) AS last_turn
}
SET l.backlog_memory = coalesce(last_memory, l.backlog_memory),
    l.backlog_turn = coalesce(last_turn, l.backlog_turn),
    l.backlog_done = CASE WHEN memories < $limit AND turns < $limit THEN true END
RETURN memories + turns AS walked
