// maintain finds decisions past review_after by range seek.
CREATE INDEX decision_by_review_after IF NOT EXISTS FOR (d:Decision) ON (d.tenant, d.review_after)
