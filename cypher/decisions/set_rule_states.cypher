// Keep each evaluated decision's unknown verdicts as state (review_decisions lists them
// without evaluating): per rule its reason and since when (unchanged while the reason stays),
// per decision how many of its rules are unknown now. A decision that is no longer live
// keeps none: its rules can no longer reopen anything. Entries come only for decisions whose
// state changed (graphmem/decisions/evaluation.py).
UNWIND $entries AS entry
MATCH (d:Decision {tenant: $tenant, id: entry.decision_id})
CALL (d, entry) {
  MATCH (d)-[:HAS_ALTERNATIVE]->(:Alternative)-[r:REOPEN_WHEN]->(:FactKey)
  WITH r, [rule IN entry.rules WHERE rule.rule_id = r.rule_id | rule.reason][0] AS reason
  WITH r, reason,
       CASE WHEN reason IS NULL THEN null
            WHEN r.unknown_reason = reason THEN r.unknown_since
            ELSE datetime($now) END AS since
  SET r.unknown_reason = reason, r.unknown_since = since
  RETURN count(reason) AS unknown
}
SET d.unknown_rules = unknown
RETURN count(d) AS decisions
