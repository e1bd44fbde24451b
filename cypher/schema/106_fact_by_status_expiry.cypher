// maintain seeks the active facts past their boundary: tenant and status by equality, the
// boundary by range, so superseded and expired history never enters the seek.
CREATE INDEX fact_by_status_expiry IF NOT EXISTS
FOR (f:Fact) ON (f.tenant, f.status, f.effective_until)
