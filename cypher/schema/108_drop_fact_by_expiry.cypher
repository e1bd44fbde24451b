// Replaced by fact_by_status_expiry (106): the seek now skips superseded and expired history.
DROP INDEX fact_by_expiry IF EXISTS
