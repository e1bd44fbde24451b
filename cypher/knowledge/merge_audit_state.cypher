// audit_memory's bookkeeping node, reached from the tenant's history head (locked by the
// caller): the scan cursors (JSON; null until the first run stores them) and when the audit
// last ran.
MATCH (h:History {tenant: $tenant})
MERGE (h)-[:HAS_AUDIT_STATE]->(s:AuditState {tenant: $tenant})
  ON CREATE SET s.created_at = datetime($now)
RETURN s.cursors_json AS cursors_json
