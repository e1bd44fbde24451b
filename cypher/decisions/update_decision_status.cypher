// Change a decision's lifecycle status; a successor (if given) is linked by SUPERSEDES.
MATCH (d:Decision {tenant: $tenant, id: $id})
SET d.status = $status, d.updated_at = datetime($now), d.status_reason = $reason
WITH d
OPTIONAL MATCH (newer:Decision {tenant: $tenant, id: $successor_id})
FOREACH (_ IN CASE WHEN newer IS NULL THEN [] ELSE [1] END |
  CREATE (newer)-[:SUPERSEDES {at: datetime($now), reason: $reason}]->(d))
