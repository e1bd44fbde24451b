// enrich_context warms a task pack per active workstream: found by index seek on status.
CREATE INDEX workstream_by_status IF NOT EXISTS FOR (w:Workstream) ON (w.tenant, w.status, w.id)
