// Bring each decision's review signals in line with its breach set (coverage: the sorted
// breached rule ids joined; '' when nothing breaches). Open signals of another set are
// cleared; when nothing breaches, acknowledged ones are cleared too (the episode is over).
// The set's own signal is created open, reopened when it had been cleared, and otherwise
// kept as it is: an acknowledged signal stays quiet until the set changes.
UNWIND $entries AS entry
CALL (entry) {
  OPTIONAL MATCH (old:ReviewSignal {tenant: $tenant, decision_id: entry.decision_id})
  WHERE old.coverage <> entry.coverage
    AND (old.status = 'open' OR (entry.coverage = '' AND old.status = 'acknowledged'))
  SET old.status = 'cleared', old.cleared_at = datetime($now)
  RETURN count(old) AS cleared
}
OPTIONAL CALL (entry) {
  WITH entry WHERE entry.coverage <> ''
  MERGE (s:ReviewSignal {tenant: $tenant, decision_id: entry.decision_id,
                         coverage: entry.coverage})
    ON CREATE SET s.id = entry.signal_id, s.status = 'cleared',
                  s.breached_rule_ids = entry.breached_rule_ids,
                  s.created_at = datetime($now)
  WITH s, s.status = 'cleared' AS opening
  SET s.status = CASE WHEN opening THEN 'open' ELSE s.status END,
      s.opened_at = CASE WHEN opening THEN datetime($now) ELSE s.opened_at END,
      s.cleared_at = CASE WHEN opening THEN null ELSE s.cleared_at END
  RETURN s {
    signal_id: s.id, .decision_id, .breached_rule_ids, .status, .opened_at,
    .acknowledged_at, .note
  } AS signal, opening
}
WITH entry, cleared, signal, opening WHERE cleared > 0 OR signal IS NOT NULL
RETURN entry.decision_id AS decision_id, cleared, signal, opening
