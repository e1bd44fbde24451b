// Context packs: a tenant's candidate claims, most confident first, in index order.
CREATE INDEX claim_by_status_confidence IF NOT EXISTS FOR (c:Claim) ON (c.tenant, c.status, c.confidence)
