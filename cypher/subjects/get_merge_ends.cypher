// The two subjects of a merge, as they stand: each one's root (where its merge chain ends), so
// a merge joins roots and never makes a circle.
UNWIND [$subject_id, $into_id] AS id
OPTIONAL MATCH (s:Subject {tenant: $tenant, id: id})
OPTIONAL MATCH (s)-[:MERGED_INTO*1..]->(up:Subject)
WHERE NOT EXISTS { (up)-[:MERGED_INTO]->() }
RETURN id, s IS NOT NULL AS found, coalesce(up.id, s.id) AS root, s.name AS name
