// A key's facts newest first (history) without walking every fact of the key.
CREATE INDEX fact_by_slot_recorded IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.slot_id, f.recorded_at)
