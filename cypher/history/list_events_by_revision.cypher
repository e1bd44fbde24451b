// Events an erasure chose by revision (everything an actor or session wrote), not yet erased
// and not an erasure's own: the fields the erasure's seal covers.
UNWIND $revisions AS revision
MATCH (e:Event {tenant: $tenant, revision: revision})
WHERE e.erased_by IS NULL AND e.op <> 'erase'
RETURN e.revision AS revision, e.op AS op, e.at_text AS at_text, e.prev_hash AS prev_hash,
       e.hash AS hash
ORDER BY revision
