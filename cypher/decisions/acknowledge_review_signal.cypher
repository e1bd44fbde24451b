// Acknowledge an open signal: it stays quiet while its decision's breach set is the same.
MATCH (s:ReviewSignal {tenant: $tenant, id: $id})
SET s.status = 'acknowledged', s.acknowledged_at = datetime($now), s.note = $note,
    s.acknowledged_by = $actor
RETURN s {
  signal_id: s.id, .decision_id, .breached_rule_ids, .status, .opened_at, .acknowledged_at,
  .note
} AS signal
