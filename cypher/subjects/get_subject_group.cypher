// What is known about a subject: the subject a merge chain ends at (the root) and every subject
// merged into it (members), their spellings, how often they are mentioned, the latest active
// memories, turns (not quarantined), chunks (not quarantined) and claims (not rejected) that
// mention them, the current facts whose key starts with one of their
// names as a key would write it (acme., acme_corp., acme-corp., acmecorp.: an index seek
// each), and the open questions about them. Bounded: $limit of each list.
MATCH (start:Subject {tenant: $tenant, id: $id})
OPTIONAL MATCH (start)-[:MERGED_INTO*1..]->(up:Subject)
WHERE NOT EXISTS { (up)-[:MERGED_INTO]->() }
WITH coalesce(up, start) AS root
WITH root,
     [root] + COLLECT { MATCH (m:Subject)-[:MERGED_INTO*1..]->(root) RETURN m LIMIT 100 } AS members
WITH root, members,
     COLLECT { UNWIND members AS m MATCH (m)<-[:OF]-(a:Alias) RETURN a.normal } AS normals
WITH root, members, [n IN normals | replace(n, ' ', '_') + '.'] + [n IN normals | replace(n, ' ', '-') + '.']
     + [n IN normals | replace(n, ' ', '') + '.'] + [n IN normals | n + '.'] AS prefixes
RETURN root.id AS id, root.kind AS kind, root.name AS name,
  [m IN members | m {.id, .name, .kind,
    merged_into: COLLECT { MATCH (m)-[:MERGED_INTO]->(x:Subject) RETURN x.id }[0]}] AS members,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:OF]-(a:Alias)
    WITH a ORDER BY a.created_at, a.id RETURN a.written
  } AS aliases,
  COUNT { UNWIND members AS m MATCH (m)<-[:NAMES]-(x:Mention) RETURN x } AS mentions,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(memory:Memory)
    WHERE memory.status = 'active'
    WITH DISTINCT memory ORDER BY memory.updated_at DESC, memory.id LIMIT $limit
    RETURN memory {.id, .project, .title, .updated_at}
  } AS memories,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(turn:Turn)
    WHERE NOT coalesce(turn.quarantined, false)
    WITH DISTINCT turn ORDER BY turn.ts DESC, turn.id LIMIT $limit
    RETURN turn {.id, .session_id, .role, .ts, content: left(turn.content, 300)}
  } AS turns,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(chunk:Chunk)
    WHERE NOT coalesce(chunk.quarantined, false)
    WITH DISTINCT chunk ORDER BY chunk.updated_at DESC, chunk.id LIMIT $limit
    RETURN chunk {.id, .project, .title, .state, .updated_at}
  } AS chunks,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(claim:Claim)
    WHERE claim.status <> 'rejected'
    WITH DISTINCT claim ORDER BY claim.updated_at DESC, claim.id LIMIT $limit
    RETURN claim {.id, .project, .subject, .predicate, .object, .status, .chunk_id}
  } AS claims,
  COLLECT {
    UNWIND prefixes AS prefix
    MATCH (k:FactKey) WHERE k.tenant = $tenant AND k.key STARTS WITH prefix
    MATCH (k)-[:CURRENT]->(fact:Fact)
    WITH DISTINCT fact ORDER BY fact.recorded_at DESC, fact.id LIMIT $limit
    RETURN fact {.id, .key, .owner, .value_json, .status, .recorded_at}
  } AS facts,
  COLLECT {
    UNWIND members AS m
    MATCH (m)<-[:ASKS_ABOUT]-(q:SubjectQuestion {status: 'open'})-[:ASKS_ABOUT]->(other:Subject)
    WHERE other.id <> m.id
    WITH DISTINCT q, m, other ORDER BY q.asked_at, q.id LIMIT $limit
    RETURN q {.id, .evidence, .confidence, subject_id: m.id, other_id: other.id,
              other_name: other.name}
  } AS questions
