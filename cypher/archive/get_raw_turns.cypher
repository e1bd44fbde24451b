// get_observations (source raw) and search's raw hits: archived turns by id, with their
// session.
UNWIND $ids AS id
MATCH (s:Session {tenant: $tenant})-[:HAS_TURN]->(t:Turn {tenant: $tenant, id: id})
RETURN t.id AS id, s.id AS session_id, s.session_ref AS session_ref, s.project AS project,
       t.role AS role, toString(t.ts) AS ts, t.seq AS seq, t.content AS content,
       t.quarantined AS quarantined, t.quarantine_reasons AS quarantine_reasons
