// The events of one aggregate, newest first: its own and those that named it among their
// subjects (by the EventSubject index; events older than the head's subjects_indexed_from,
// written before that index existed, by their subject_ids). Optionally of one kind or since
// a time. Each branch reads its index from the newest and stops at $limit.
CALL () {
  MATCH (e:Event)
  USING INDEX e:Event(tenant, aggregate_id, revision)
  WHERE e.tenant = $tenant AND e.aggregate_id = $aggregate_id AND e.revision >= 1
    AND ($aggregate_kind IS NULL OR e.aggregate_kind = $aggregate_kind)
    AND ($since IS NULL OR e.at >= datetime($since))
  WITH e ORDER BY e.tenant DESC, e.aggregate_id DESC, e.revision DESC LIMIT $limit
  RETURN e
  UNION
  MATCH (s:EventSubject)
  USING INDEX s:EventSubject(tenant, subject_id, revision)
  WHERE s.tenant = $tenant AND s.subject_id = $aggregate_id AND s.revision >= 1
  WITH s ORDER BY s.tenant DESC, s.subject_id DESC, s.revision DESC
  MATCH (e:Event {tenant: $tenant, revision: s.revision})
  WHERE ($aggregate_kind IS NULL OR e.aggregate_kind = $aggregate_kind)
    AND ($since IS NULL OR e.at >= datetime($since))
  WITH e LIMIT $limit
  RETURN e
  UNION
  MATCH (h:History {tenant: $tenant})
  MATCH (e:Event)
  USING INDEX e:Event(tenant, revision)
  WHERE e.tenant = $tenant AND e.revision >= 1
    AND e.revision < coalesce(h.subjects_indexed_from, h.revision + 1)
    AND $aggregate_id IN e.subject_ids
    AND ($aggregate_kind IS NULL OR e.aggregate_kind = $aggregate_kind)
    AND ($since IS NULL OR e.at >= datetime($since))
  WITH e ORDER BY e.tenant DESC, e.revision DESC LIMIT $limit
  RETURN e
}
RETURN e AS event
ORDER BY e.revision DESC
LIMIT $limit
