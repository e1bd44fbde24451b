// The tenant's history events, newest first, optionally narrowed to one aggregate (its own
// events and those that touched it), one aggregate kind, or a time.
MATCH (e:Event {tenant: $tenant})
WHERE e.revision >= 1
  AND ($aggregate_id IS NULL OR e.aggregate_id = $aggregate_id
       OR $aggregate_id IN e.subject_ids)
  AND ($aggregate_kind IS NULL OR e.aggregate_kind = $aggregate_kind)
  AND ($since IS NULL OR e.at >= datetime($since))
RETURN e AS event
ORDER BY e.revision DESC
LIMIT $limit
