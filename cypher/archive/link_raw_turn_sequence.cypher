// archive_turns: re-thread NEXT in (ts, seq) order over the part of the session that the new
// turns touch: every turn from $from_ts on, plus the one turn just before it. Appending costs
// the new turns only; a late turn re-threads the suffix it lands in. The chain stays linear.
// ($new_ids: the turns this call stored.)
CALL () {
  MATCH (t:Turn)
  WHERE t.tenant = $tenant AND t.session_id = $session_id AND t.ts >= datetime($from_ts)
  WITH t ORDER BY t.ts, t.seq
  RETURN collect(t) AS tail
}
CALL () {
  OPTIONAL MATCH (p:Turn)
  WHERE p.tenant = $tenant AND p.session_id = $session_id AND p.ts < datetime($from_ts)
  WITH p ORDER BY p.ts DESC, p.seq DESC LIMIT 1
  RETURN p
}
WITH CASE WHEN p IS NULL THEN tail ELSE [p] + tail END AS chain
CALL (chain) {
  UNWIND chain AS t
  MATCH (t)-[n:NEXT]->()
  DELETE n
}
CALL (chain) {
  UNWIND range(0, size(chain) - 2) AS i
  WITH chain[i] AS a, chain[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
// A turn said before now sits ahead of an earlier-stored one (a late turn): that one's vector
// read (or is being computed from) another turn before it; it goes, and the turn waits for a
// new one (its id returned, to be queued again).
CALL (chain) {
  UNWIND range(1, size(chain) - 1) AS i
  WITH chain[i - 1] AS before, chain[i] AS t
  WHERE before.id IN $new_ids AND NOT t.id IN $new_ids
    AND (t.embedding IS NOT NULL OR t:Unembedded)
  REMOVE t.embedding, t.embedding_model
  SET t:Unembedded
  RETURN collect(t.id) AS stale
}
RETURN size(chain) AS threaded, stale
