// A new decision replaces an older one: the older is superseded, linked by SUPERSEDES.
MATCH (newer:Decision {tenant: $tenant, id: $newer_id})
MATCH (older:Decision {tenant: $tenant, id: $older_id})
SET older.status = 'superseded', older.updated_at = datetime($now)
CREATE (newer)-[:SUPERSEDES {at: datetime($now), reason: $reason}]->(older)
