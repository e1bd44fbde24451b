// Browser guide: a session's turns in order (the session by its reference).
MATCH (s:Session)
WHERE s.tenant = $tenant AND s.session_ref = $session_ref
MATCH (s)-[:HAS_TURN]->(t:Turn)
RETURN s.project AS project, t.seq AS seq, t.role AS role, t.ts AS ts,
       left(t.content, 300) AS content, t.quarantined AS quarantined
ORDER BY s.id, t.seq
LIMIT 500
