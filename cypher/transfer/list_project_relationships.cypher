// graphmem export --project: the relationships leaving the slice's nodes (the slice as
// list_project_nodes takes it); the caller keeps those whose other end is in the slice.
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
MATCH (n)-[r]->(b {tenant: $tenant})
RETURN elementId(n) AS from_ref, elementId(b) AS to_ref, type(r) AS type,
       [name IN keys(r) | CASE
         WHEN valueType(r[name]) =~ '(LIST<)?(ZONED|LOCAL|DATE|DURATION).*'
         THEN [name, CASE WHEN r[name] :: LIST<ANY> THEN [x IN r[name] | toString(x)]
                          ELSE toString(r[name]) END, valueType(r[name])]
         ELSE [name, r[name]] END] AS properties
