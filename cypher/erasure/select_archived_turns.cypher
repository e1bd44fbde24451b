// An erasure's roots among the raw archive: the turns the actor's archive_turns calls stored
// (each turn names its call's event: archived_revision IN $revisions; turns stored before it
// did, by the [from, to) range of seq their call's event names: $ranges), and then each of
// those sessions in which no live turn outside them is left: a session goes with the actor
// who opened it only when nobody else's turn is in it.
CALL () {
  UNWIND $sessions AS session_id
  MATCH (s:Session {tenant: $tenant, id: session_id})-[:HAS_TURN]->(t:Turn)
  WHERE t.archived_revision IN $revisions
     OR (t.archived_revision IS NULL
         AND ANY(taken IN $ranges WHERE taken.session = s.id
                                      AND taken.from <= t.seq < taken.to))
  RETURN t AS n, 'Turn' AS kind
  UNION
  UNWIND $sessions AS session_id
  MATCH (s:Session {tenant: $tenant, id: session_id})
  WHERE NOT EXISTS {
    MATCH (s)-[:HAS_TURN]->(other:Turn)
    WHERE NOT other.archived_revision IN $revisions
      AND NOT (other.archived_revision IS NULL
               AND ANY(taken IN $ranges WHERE taken.session = s.id
                                            AND taken.from <= other.seq < taken.to))
  }
  RETURN s AS n, 'Session' AS kind
}
RETURN elementId(n) AS ref, kind, n.id AS id
