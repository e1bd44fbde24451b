// After an erasure batch ($refs: the nodes it made tombstones): the counters other nodes keep of what it
// erased. A live fact's open-contradiction count (as facts/refresh_contradiction_counts
// defines it: open CONTRADICTS links to a live fact; an erased one is no fact) and a kept raw
// session's message count, less its erased turns.
CALL () {
  UNWIND $refs AS ref
  MATCH (n:Erased)-[:CONTRADICTS]-(side:Fact)
  WHERE elementId(n) = ref AND n.tenant = $tenant
  WITH DISTINCT side
  WITH side, COUNT {
    (side)-[c:CONTRADICTS]-(other:Fact)
    WHERE c.cleared_at IS NULL AND other.status = 'active'
      AND coalesce(other.effective_until > datetime($now), true)
  } AS expected
  WHERE side.contradiction_count IS NULL OR side.contradiction_count <> expected
  SET side.contradiction_count = expected
}
CALL () {
  UNWIND $refs AS ref
  MATCH (session:Session)-[:HAS_TURN]->(turn:Erased)
  WHERE elementId(turn) = ref AND turn.tenant = $tenant
  WITH session, count(turn) AS erased
  SET session.message_count = session.message_count - erased
}
RETURN 1 AS refreshed
