// maintain: active facts whose boundary (the earlier of valid_to and expires_at) has passed
// become 'expired', leave their key's CURRENT slot and get a new transaction-time state.
MATCH (f:Fact {tenant: $tenant, status: 'active'})
USING INDEX SEEK f:Fact(tenant, status, effective_until)
WHERE f.effective_until <= datetime($now)
WITH f ORDER BY f.effective_until LIMIT $limit
SET f.status = 'expired', f.updated_at = datetime($now),
    f.verification_status = CASE f.verification_status WHEN 'verified' THEN 'expired'
                                 ELSE f.verification_status END
WITH f
OPTIONAL MATCH (k:FactKey)-[c:CURRENT]->(f)
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END |
  CREATE (k)-[:WAS_CURRENT {since: c.since, until: datetime($now)}]->(f)
)
DELETE c
WITH f
OPTIONAL MATCH (f)-[:HAS_STATE]->(open:FactState)
WHERE open.tx_to IS NULL
SET open.tx_to = datetime($now)
CREATE (f)-[:HAS_STATE]->(:FactState {
  tenant: $tenant, fact_id: f.id, tx_from: datetime($now), status: 'expired',
  valid_to: f.valid_to, expires_at: f.expires_at
})
RETURN f.id AS id
