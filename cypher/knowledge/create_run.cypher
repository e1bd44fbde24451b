// One run-history entry of a pipeline call (what ran, on what, how it ended).
CREATE (:Run {
  id: $id, tenant: $tenant, tool: $tool, subject_kind: $subject_kind,
  subject_id: $subject_id, status: $status, reason: $reason, counters_json: $counters_json,
  at: datetime($now)
})
