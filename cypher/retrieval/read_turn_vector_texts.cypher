// What the vectors of archived turns encode (graphmem/archive/turns.py turn_embedding_text):
// each turn's day and content with the content of the turn just before it in its session (a
// reply is understood with what it answers), unless that one is quarantined.
UNWIND $ids AS id
MATCH (t:Turn {tenant: $tenant, id: id})
OPTIONAL MATCH (p:Turn)-[:NEXT]->(t)
WHERE p.tenant = $tenant AND NOT coalesce(p.quarantined, false)
RETURN t.id AS id, t.ts AS ts, t.content AS content, p.content AS previous,
       p.id AS previous_id
