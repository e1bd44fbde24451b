// An erasure's roots: what one actor, or one session of an agent, wrote (the audit fields a
// write records on what it makes). One of $actor and $session_id is set.
MATCH (n)
WHERE n.tenant = $tenant
  AND ((n.actor IS NOT NULL AND n.actor = $actor)
       OR (n.session_id IS NOT NULL AND n.session_id = $session_id))
  AND any(label IN labels(n) WHERE label IN
          ['Memory', 'Fact', 'Decision', 'Attempt', 'Outcome', 'Chunk', 'Question', 'Answer'])
RETURN elementId(n) AS ref,
       [label IN labels(n) WHERE label IN
        ['Memory', 'Fact', 'Decision', 'Attempt', 'Outcome', 'Chunk', 'Question', 'Answer']][0]
       AS kind,
       n.id AS id
