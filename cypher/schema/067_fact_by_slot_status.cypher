// The active facts of one key slot by index seek (audit_memory's key slot check), without
// reading the slot's whole history.
CREATE INDEX fact_by_slot_status IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.slot_id, f.status)
