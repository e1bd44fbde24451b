// After an erasure batch ($refs: the nodes it made tombstones): the names kept for others say
// only what a surviving source says. A spelling keeps the text of its earliest surviving
// mention (an erased "Dr. Dana Park" leaves "Dana Park" where another memory says so); a
// subject is named by its first surviving spelling ('' when none is left: a group's root
// that merged subjects still hang from, or one named only by a description).
UNWIND $refs AS ref
MATCH (x:Erased) WHERE elementId(x) = ref AND x.tenant = $tenant
OPTIONAL MATCH (x)-[:AS]->(alias:Alias)
OPTIONAL MATCH (x)-[:NAMES]->(subject:Subject)
WITH collect(DISTINCT alias) AS aliases, collect(DISTINCT subject) AS subjects
CALL (aliases) {
  UNWIND aliases AS a
  MATCH (a)<-[:AS]-(m:Mention)
  WITH a, m ORDER BY m.at, m.id
  WITH a, collect(m.written)[0] AS first
  SET a.written = first
}
CALL (subjects) {
  UNWIND subjects AS s
  OPTIONAL MATCH (s)<-[:OF]-(a:Alias)
  WITH s, a ORDER BY a.created_at, a.id
  WITH s, collect(a.written)[0] AS first
  SET s.name = coalesce(first, '')
}
RETURN size(aliases) AS aliases, size(subjects) AS subjects
