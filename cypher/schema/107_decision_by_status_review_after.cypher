// maintain seeks the active decisions past review_after: tenant and status by equality, the
// time by range, so decisions already stale, superseded or reverted never enter the seek.
CREATE INDEX decision_by_status_review_after IF NOT EXISTS
FOR (d:Decision) ON (d.tenant, d.status, d.review_after)
