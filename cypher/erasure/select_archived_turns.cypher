// An erasure's roots among the raw archive: the turns archive_turns calls stored ($ranges:
// session id and the [from, to) range of seq each call stored, from its event), and then each
// of those sessions in which no live turn outside them is left ($sessions): a session goes
// with the actor who opened it only when nobody else's turn is in it.
CALL () {
  UNWIND $ranges AS range
  MATCH (s:Session {tenant: $tenant, id: range.session})-[:HAS_TURN]->(t:Turn)
  WHERE range.from <= t.seq < range.to
  RETURN t AS n, 'Turn' AS kind
  UNION
  UNWIND $ranges AS range
  MATCH (s:Session {tenant: $tenant, id: range.session})
  WHERE NOT EXISTS {
    MATCH (s)-[:HAS_TURN]->(other:Turn)
    WHERE NONE(taken IN $ranges WHERE taken.session = s.id
                                    AND taken.from <= other.seq < taken.to)
  }
  RETURN s AS n, 'Session' AS kind
}
RETURN elementId(n) AS ref, kind, n.id AS id
