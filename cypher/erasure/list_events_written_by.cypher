// The events one actor, or one session of an agent, wrote (erased ones too: an erased event
// keeps who wrote it until the erasure of what they wrote ends), never an erasure's own. What
// each created is what the actor wrote (not every node records its writer); the payloads of
// those not yet erased go. Two writes only sometimes create their subject, and say so in their
// payload (archive_turns: the range of turns it stored; record_commit: whether the commit was
// new), which comes with them. It reads the tenant's events in revision order: indexing every
// event's writer would cost every write for a rare erasure.
MATCH (e:Event)
USING INDEX e:Event(tenant, revision)
WHERE e.tenant = $tenant AND e.revision >= 1 AND e.op <> 'erase'
  AND ((e.actor IS NOT NULL AND e.actor = $actor)
       OR (e.session_id IS NOT NULL AND e.session_id = $session_id))
RETURN e.revision AS revision, e.op AS op, e.aggregate_id AS aggregate_id,
       e.subject_ids AS subject_ids, e.erased_by IS NOT NULL AS erased,
       CASE WHEN e.op IN ['archive_turns', 'record_commit'] THEN e.payload_json END
         AS payload_json
ORDER BY revision
