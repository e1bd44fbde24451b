// The revisions of the events one actor, or one session of an agent, wrote (their payloads
// go with an erasure of what they wrote), not yet erased and never an erasure's own.
MATCH (e:Event)
WHERE e.tenant = $tenant AND e.erased_by IS NULL AND e.op <> 'erase'
  AND ((e.actor IS NOT NULL AND e.actor = $actor)
       OR (e.session_id IS NOT NULL AND e.session_id = $session_id))
RETURN e.revision AS revision
ORDER BY revision
