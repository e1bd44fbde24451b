// list_events by subject: one EventSubject per (event, subject id), seeked newest first.
CREATE INDEX event_subject_by_revision IF NOT EXISTS
FOR (s:EventSubject) ON (s.tenant, s.subject_id, s.revision)
