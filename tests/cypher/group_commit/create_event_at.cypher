// An event node at the revision the write's own event is to take: the batch's events
// statement, its last, then violates event_revision_unique (a uniqueness violation at the end
// of a group commit, caused by one member).
CREATE (:Event {tenant: $tenant, revision: $revision})
