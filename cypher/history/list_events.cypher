// The tenant's history events, newest first, optionally of one aggregate kind or since a
// time (list_subject_events narrows to one aggregate).
MATCH (e:Event {tenant: $tenant})
WHERE e.revision >= 1
  AND ($aggregate_kind IS NULL OR e.aggregate_kind = $aggregate_kind)
  AND ($since IS NULL OR e.at >= datetime($since))
RETURN e AS event
ORDER BY e.revision DESC
LIMIT $limit
