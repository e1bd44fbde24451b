// Browser guide: what is known about a subject under any name: the spelling's key (an index
// seek: 'n:' and the name in lower case, as graphmem normalises simple names), its subject, the
// subjects merged with it, and the memories and turns that mention them.
MATCH (k:SubjectKey {tenant: $tenant, key: 'n:' + toLower(trim($subject))})-[:KEYS]->(:Alias)
      -[:OF]->(s:Subject)
OPTIONAL MATCH merged = (s)-[:MERGED_INTO*0..8]-(:Subject)
WITH s, merged
OPTIONAL MATCH named = (s)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(source)
WHERE source:Memory OR source:Turn
RETURN s, merged, named
LIMIT 100
