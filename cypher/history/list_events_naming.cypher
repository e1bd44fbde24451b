// The events an erasure must clear: those naming any of $ids as their aggregate or a subject
// (EventSubject from the revision the head started indexing subjects; the events before it,
// written before that index, by their subject list), not yet erased, and never an erasure's
// own event (it holds no content). With the fields the erasure's seal covers.
MATCH (h:History {tenant: $tenant})
CALL (h) {
  MATCH (s:EventSubject)
  WHERE s.tenant = $tenant AND s.subject_id IN $ids AND s.revision IS NOT NULL
  RETURN s.revision AS revision
  UNION
  MATCH (e:Event) WHERE e.tenant = $tenant AND e.aggregate_id IN $ids
  RETURN e.revision AS revision
  UNION
  MATCH (e:Event)
  WHERE e.tenant = $tenant AND e.revision < coalesce(h.subjects_indexed_from, h.revision + 1)
    AND any(subject IN e.subject_ids WHERE subject IN $ids)
  RETURN e.revision AS revision
}
MATCH (e:Event {tenant: $tenant, revision: revision})
WHERE e.erased_by IS NULL AND e.op <> 'erase'
RETURN e.revision AS revision, e.op AS op, e.at_text AS at_text, e.prev_hash AS prev_hash,
       e.hash AS hash
ORDER BY revision
