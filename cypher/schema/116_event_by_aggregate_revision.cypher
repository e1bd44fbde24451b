// list_events by aggregate id, newest first without sorting every event of the aggregate.
CREATE INDEX event_by_aggregate_revision IF NOT EXISTS
FOR (e:Event) ON (e.tenant, e.aggregate_id, e.revision)
