// The events one actor, or one session of an agent, wrote, not yet erased and never an
// erasure's own: their payloads go, and what each made or changed (its aggregate) is what the
// actor wrote (not every node records its writer). It reads the tenant's events in revision
// order: indexing every event's writer would cost every write for a rare erasure.
MATCH (e:Event)
USING INDEX e:Event(tenant, revision)
WHERE e.tenant = $tenant AND e.revision >= 1 AND e.erased_by IS NULL AND e.op <> 'erase'
  AND ((e.actor IS NOT NULL AND e.actor = $actor)
       OR (e.session_id IS NOT NULL AND e.session_id = $session_id))
RETURN e.revision AS revision, e.aggregate_id AS aggregate_id
ORDER BY revision
