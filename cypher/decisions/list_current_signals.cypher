// The open or acknowledged review signals of these decisions (review_decisions picks, per
// decision, the one of its breach set now).
UNWIND $decision_ids AS decision_id
MATCH (s:ReviewSignal {tenant: $tenant, decision_id: decision_id})
WHERE s.status IN ['open', 'acknowledged']
RETURN s {
  signal_id: s.id, .decision_id, .breached_rule_ids, .status, .opened_at, .acknowledged_at,
  .note, .coverage
} AS signal
