// search, subject channel over memories: the subjects the query names ($keys: their normal
// forms as 'n:' keys, an index seek each, at most $per_key subjects a key), each one's group
// (the root its merges end at and at most 100 subjects merged into it; at most $groups
// groups), and the caller's memories in scope that mention a member of the group: `found`,
// those among $ids (the fusion so far, each one's own mentions read), and `others`, the
// newest of the rest (the members' newest $scan mentions by the index's order of their
// source, at most $pool kept). One row a group, with the keys that found it and `mentions`:
// how many mentions its members have in all (their degree: how common a name it is).
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
  MATCH (n:Memory {tenant: $tenant, id: id})
  MATCH (n)-[:HAS_MENTION]->(x:Mention)
  WHERE x.subject_id IN member_ids AND n.status IN $statuses
    AND ($project IS NULL OR n.project = $project)
    AND ($type IS NULL OR n.type = $type)
    AND ($branch IS NULL OR n.branch IS NULL OR n.branch = $branch)
    AND (size($tags) = 0 OR any(tag IN n.tags WHERE tag IN $tags))
  WITH DISTINCT n
  RETURN collect({id: n.id, type: n.type, at: toString(n.updated_at)}) AS found
}
CALL (member_ids) {
  UNWIND member_ids AS member
  CALL (member) {
    MATCH (x:Mention)
    WHERE x.tenant = $tenant AND x.subject_id = member AND x.source IS NOT NULL
    RETURN x ORDER BY x.tenant DESC, x.subject_id DESC, x.source DESC
    LIMIT $scan
  }
  MATCH (x)<-[:HAS_MENTION]-(n:Memory)
  WHERE n.tenant = $tenant AND n.status IN $statuses
    AND ($project IS NULL OR n.project = $project)
    AND ($type IS NULL OR n.type = $type)
    AND ($branch IS NULL OR n.branch IS NULL OR n.branch = $branch)
    AND (size($tags) = 0 OR any(tag IN n.tags WHERE tag IN $tags))
  WITH DISTINCT n ORDER BY n.updated_at DESC, n.id
  RETURN collect({id: n.id, type: n.type, at: toString(n.updated_at)})[..$pool] AS others
}
RETURN root.id AS root, keys, mentions, found, others
