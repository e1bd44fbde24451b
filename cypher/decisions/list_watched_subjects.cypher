// The subjects the reopen rules of these decisions watch (their keys' subject parts): the
// evidence of a rule is read under every spelling of its subject (evaluate_reopen_rules).
UNWIND $decision_ids AS decision_id
OPTIONAL MATCH (:Decision {tenant: $tenant, id: decision_id})-[:HAS_ALTERNATIVE]->(:Alternative)
               -[:REOPEN_WHEN]->(k:FactKey)
RETURN collect(DISTINCT k.subject) AS subjects
