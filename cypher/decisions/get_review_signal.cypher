// One review signal by id.
MATCH (s:ReviewSignal {tenant: $tenant, id: $id})
RETURN s {
  signal_id: s.id, .decision_id, .breached_rule_ids, .status, .opened_at, .acknowledged_at,
  .note
} AS signal
