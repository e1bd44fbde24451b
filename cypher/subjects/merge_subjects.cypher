// Merge: the subject's root joins the other's (MERGED_INTO, with who, why and the revision);
// no spelling, mention or key moves, so a split restores exactly what was joined. The open
// questions between the two groups are settled as "same".
MATCH (from:Subject {tenant: $tenant, id: $from_id})
MATCH (into:Subject {tenant: $tenant, id: $into_id})
WHERE NOT EXISTS { (into)-[:MERGED_INTO*1..]->(from) } AND from <> into  // never a circle
CREATE (from)-[:MERGED_INTO {at: datetime($now), revision: $revision, reason: $reason,
                             actor: $actor}]->(into)
SET from.updated_at = datetime($now), into.updated_at = datetime($now)
WITH from, into
OPTIONAL MATCH (from)<-[:MERGED_INTO*0..]-(a:Subject)<-[:ASKS_ABOUT]-(q:SubjectQuestion)
WHERE q.status = 'open'
  AND EXISTS { (q)-[:ASKS_ABOUT]->(:Subject)-[:MERGED_INTO*0..]->(into) }
SET q.status = 'answered_same', q.answered_at = datetime($now), q.revision = $revision
RETURN from.id AS merged, count(DISTINCT q) AS settled
