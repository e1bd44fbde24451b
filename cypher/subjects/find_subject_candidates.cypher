// The subjects a pass's mentions may name: those with one of the mentions' keys, found by an
// index seek each ($probes: each key once, with the sources its mentions are in). An equal name
// ('n:' keys) finds every subject that bears it; a partial key (first or last word, initials)
// at most $per_key, so a common word ("john", a host's "com") costs a bounded read. With each:
// its spellings, its group's root (where its merges end: one subject with its members), and
// which of the probing sources already mention it.
UNWIND $probes AS probe
CALL (probe) {
  MATCH (k:SubjectKey {tenant: $tenant, key: probe.key})
  WHERE probe.key STARTS WITH 'n:'
  RETURN k.subject_id AS subject_id
  LIMIT 1000
  UNION
  MATCH (k:SubjectKey {tenant: $tenant, key: probe.key})
  WHERE NOT probe.key STARTS WITH 'n:'
  RETURN k.subject_id AS subject_id
  LIMIT $per_key
}
UNWIND coalesce(probe.sources, []) + [null] AS source  // null: a probe of no source counts too
WITH subject_id, collect(DISTINCT source) AS probed
MATCH (s:Subject {tenant: $tenant, id: subject_id})
OPTIONAL MATCH (s)-[:MERGED_INTO*1..]->(up:Subject)
WHERE NOT EXISTS { (up)-[:MERGED_INTO]->() }
RETURN s.id AS id, s.kind AS kind, coalesce(up.id, s.id) AS root,
       COLLECT {
         MATCH (s)<-[:OF]-(a:Alias) WITH a ORDER BY a.created_at, a.id RETURN a {.id, .written}
       } AS aliases,
       [source IN probed WHERE EXISTS {
         MATCH (x:Mention {tenant: $tenant, subject_id: s.id, source: source})
       }] AS sources
