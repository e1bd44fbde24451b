// The tenant's history events, newest first, optionally of one aggregate kind or since a
// time (list_subject_events narrows to one aggregate). Ordered as the (tenant, revision) index
// is, so it reads from the newest and stops at $limit instead of sorting the whole history.
MATCH (e:Event)
USING INDEX e:Event(tenant, revision)
WHERE e.tenant = $tenant AND e.revision >= 1
  AND ($aggregate_kind IS NULL OR e.aggregate_kind = $aggregate_kind)
  AND ($since IS NULL OR e.at >= datetime($since))
WITH e ORDER BY e.tenant DESC, e.revision DESC LIMIT $limit
RETURN e AS event
