// Test helper: run-history entries of one subject, oldest first.
MATCH (r:Run {tenant: $tenant})
WHERE r.subject_id = $subject_id
RETURN r {.tool, .status, .reason, .counters_json} AS run
ORDER BY r.at, r.id
