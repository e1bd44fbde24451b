// search, subject channel over the raw archive: as find_subject_memories, for turns: the
// subjects the query names ($keys, 'n:' keys, at most $per_key subjects a key), each one's
// group (its root and at most 100 subjects merged into it; at most $groups groups), and the
// caller's turns that mention a member (quarantined ones and other projects left out):
// `found` among $ids (the fusion so far), `others` the newest of the rest (the members'
// newest $scan mentions by the index's order of their source, a session, at most $pool
// kept). One row a group, with the keys that found it and how many mentions its members
// have in all.
UNWIND range(0, size($keys) - 1) AS position
WITH $keys[position] AS key, position
CALL (key) {
  MATCH (k:SubjectKey {tenant: $tenant, key: key})
  RETURN k.subject_id AS subject_id
  LIMIT $per_key
}
MATCH (s:Subject {tenant: $tenant, id: subject_id})
OPTIONAL MATCH (s)-[:MERGED_INTO*1..]->(up:Subject)
WHERE up.tenant = $tenant AND NOT EXISTS { (up)-[:MERGED_INTO]->() }
WITH coalesce(up, s) AS root, collect(DISTINCT key) AS keys, min(position) AS first
ORDER BY first  // the groups the query names first are kept
LIMIT $groups
WITH root, keys, [root] + COLLECT {
  MATCH (m:Subject)-[:MERGED_INTO*1..]->(root) WHERE m.tenant = $tenant RETURN m LIMIT 100
} AS members
WITH root, keys, members, [m IN members | m.id] AS member_ids
CALL (members) {
  UNWIND members AS m
  RETURN sum(COUNT { (m)<-[:NAMES]-(:Mention) }) AS mentions
}
CALL (member_ids) {
  UNWIND $ids AS id
  MATCH (n:Turn {tenant: $tenant, id: id})
  MATCH (n)-[:HAS_MENTION]->(x:Mention)
  WHERE x.subject_id IN member_ids AND NOT n.quarantined
    AND ($project IS NULL OR n.project = $project)
  WITH DISTINCT n
  RETURN collect({id: n.id, type: null, at: toString(n.ts)}) AS found
}
CALL (member_ids) {
  UNWIND member_ids AS member
  CALL (member) {
    MATCH (x:Mention)
    WHERE x.tenant = $tenant AND x.subject_id = member AND x.source IS NOT NULL
    RETURN x ORDER BY x.tenant DESC, x.subject_id DESC, x.source DESC
    LIMIT $scan
  }
  MATCH (x)<-[:HAS_MENTION]-(n:Turn)
  WHERE n.tenant = $tenant AND NOT n.quarantined AND ($project IS NULL OR n.project = $project)
  WITH DISTINCT n ORDER BY n.ts DESC, n.id
  RETURN collect({id: n.id, type: null, at: toString(n.ts)})[..$pool] AS others
}
RETURN root.id AS root, keys, mentions, found, others
