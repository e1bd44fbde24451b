// The live decisions whose reopen rules cannot fire now (review_decisions' diagnostics over a
// scope), found by a range seek on the count kept by set_rule_states, not a label scan.
CREATE INDEX decision_by_unknown_rules IF NOT EXISTS FOR (d:Decision) ON (d.tenant, d.unknown_rules)
