// The end of an erasure of what one actor or agent session wrote: its events no longer name
// who wrote them (the audit fields are not hashed: the chain still verifies).
UNWIND $revisions AS revision
MATCH (e:Event {tenant: $tenant, revision: revision})
REMOVE e.actor, e.session_id, e.client
RETURN count(e) AS forgotten
