// graphmem export --project: one project's slice of the tenant: the nodes whose project is
// $project, what hangs off them without a project of its own (one or two hops: fact states,
// alternatives, attempts and outcomes, annotations, questions and answers, impact targets,
// packs) and the review signals of its decisions. Not the tenant's history, idempotency
// records, audit issues and cursors, or runs: a hash chain cannot be cut by project.
// Properties as list_tenant_nodes gives them.
UNWIND $labels AS label
CALL (label) {
  MATCH (s:$(label) {tenant: $tenant})
  WHERE s.project = $project
  RETURN s AS n
  UNION
  MATCH (s:$(label) {tenant: $tenant})--(m {tenant: $tenant})
  WHERE s.project = $project AND m.project IS NULL
    AND NOT m:History|Event|EventSubject|AuditState|IdempotencyRecord|Issue|Run
  RETURN m AS n
  UNION
  MATCH (s:$(label) {tenant: $tenant})--(o {tenant: $tenant})--(m {tenant: $tenant})
  WHERE s.project = $project AND o.project IS NULL AND m.project IS NULL
    AND NOT o:History|Event|EventSubject|AuditState|IdempotencyRecord|Issue|Run
    AND NOT m:History|Event|EventSubject|AuditState|IdempotencyRecord|Issue|Run
  RETURN m AS n
  UNION
  MATCH (s:$(label) {tenant: $tenant})
  WHERE label = 'Decision' AND s.project = $project
  MATCH (m:ReviewSignal {tenant: $tenant, decision_id: s.id})
  RETURN m AS n
}
WITH DISTINCT n
RETURN elementId(n) AS ref, labels(n) AS labels,
       [name IN keys(n) | CASE
         WHEN valueType(n[name]) =~ '(LIST<)?(ZONED|LOCAL|DATE|DURATION).*'
         THEN [name, CASE WHEN n[name] :: LIST<ANY> THEN [x IN n[name] | toString(x)]
                          ELSE toString(n[name]) END, valueType(n[name])]
         ELSE [name, n[name]] END] AS properties
