// Test helper: run-history entries of one subject, oldest first.
MATCH (r:Run {tenant: $tenant})
WHERE r.subject_id = $subject_id
WITH r ORDER BY r.at, r.id
RETURN r {.tool, .status, .reason, .counters_json} AS run
