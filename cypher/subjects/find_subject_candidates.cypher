// The subjects a pass's mentions may name: those with one of the mentions' keys (an index
// seek each: $probes pairs a key with the source its mention is in), their spellings, and
// which of those sources already mention them (a seek per subject and source it was probed
// from, never per subject and every source of the pass).
UNWIND $probes AS probe
MATCH (k:SubjectKey {tenant: $tenant, key: probe.key})
WITH k.subject_id AS subject_id, collect(DISTINCT probe.source) AS probed
LIMIT $limit
MATCH (s:Subject {tenant: $tenant, id: subject_id})
RETURN s.id AS id, s.kind AS kind,
       COLLECT {
         MATCH (s)<-[:OF]-(a:Alias) WITH a ORDER BY a.created_at, a.id RETURN a {.id, .written}
       } AS aliases,
       [source IN probed WHERE EXISTS {
         MATCH (x:Mention {tenant: $tenant, subject_id: s.id, source: source})
       }] AS sources
