// An erasure's roots: every version of a memory topic and the fact keys of that name (their
// facts follow by expansion).
CALL () {
  MATCH (n:Memory)
  WHERE n.tenant = $tenant AND n.topic_key = $topic AND n.project IS NOT NULL
    AND n.topic_version IS NOT NULL
  RETURN n, 'Memory' AS kind
  UNION MATCH (n:FactKey) WHERE n.tenant = $tenant AND n.key = $topic
  RETURN n, 'FactKey' AS kind
}
RETURN elementId(n) AS ref, kind, n.id AS id
