// The subjects a pass's mentions may name: those with one of the mentions' keys (an index
// seek each), their spellings, and which of the pass's sources already mention them.
UNWIND $keys AS key
MATCH (k:SubjectKey {tenant: $tenant, key: key})
WITH DISTINCT k.subject_id AS subject_id
LIMIT $limit
MATCH (s:Subject {tenant: $tenant, id: subject_id})
RETURN s.id AS id, s.kind AS kind,
       COLLECT {
         MATCH (s)<-[:OF]-(a:Alias) WITH a ORDER BY a.created_at, a.id RETURN a {.id, .written}
       } AS aliases,
       [source IN $sources WHERE EXISTS {
         MATCH (x:Mention {tenant: $tenant, subject_id: s.id, source: source})
       }] AS sources
