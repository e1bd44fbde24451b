// replay_memory narrows the history to one aggregate.
CREATE INDEX event_by_aggregate IF NOT EXISTS FOR (e:Event) ON (e.tenant, e.aggregate_id)
