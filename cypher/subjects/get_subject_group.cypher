// What is known about a subject: the subject a merge chain ends at (the root) and every subject
// merged into it (members), their spellings, how often they are mentioned, the latest active
// memories, turns (not quarantined), chunks (not quarantined) and claims (not rejected) that
// mention them, the current facts of the keys that name one of their spellings (a key's
// subject part, graphmem/subjects/spellings.py: acme.ceo, ACME_Corp.ceo; an index seek each),
// the live decisions whose reopen rules watch such a key, and the open questions about them.
// Bounded and paged: each list skips $offset and holds at most $limit.
MATCH (start:Subject {tenant: $tenant, id: $id})
OPTIONAL MATCH (start)-[:MERGED_INTO*1..]->(up:Subject)
WHERE NOT EXISTS { (up)-[:MERGED_INTO]->() }
WITH coalesce(up, start) AS root
WITH root,
     [root] + COLLECT { MATCH (m:Subject)-[:MERGED_INTO*1..]->(root) RETURN m LIMIT 100 } AS members
WITH root, members,
     COLLECT {
       UNWIND members AS m MATCH (m)<-[:OF]-(a:Alias) RETURN DISTINCT a.normal LIMIT 200
     } AS normals
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
    WITH DISTINCT memory ORDER BY memory.updated_at DESC, memory.id SKIP $offset LIMIT $limit
    RETURN memory {.id, .project, .title, .updated_at}
  } AS memories,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(turn:Turn)
    WHERE NOT coalesce(turn.quarantined, false)
    WITH DISTINCT turn ORDER BY turn.ts DESC, turn.id SKIP $offset LIMIT $limit
    RETURN turn {.id, .session_id, .role, .ts, content: left(turn.content, 300)}
  } AS turns,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(chunk:Chunk)
    WHERE NOT coalesce(chunk.quarantined, false)
    WITH DISTINCT chunk ORDER BY chunk.updated_at DESC, chunk.id SKIP $offset LIMIT $limit
    RETURN chunk {.id, .project, .title, .state, .updated_at}
  } AS chunks,
  COLLECT {
    UNWIND members AS m MATCH (m)<-[:NAMES]-(:Mention)<-[:HAS_MENTION]-(claim:Claim)
    WHERE claim.status <> 'rejected'
    WITH DISTINCT claim ORDER BY claim.updated_at DESC, claim.id SKIP $offset LIMIT $limit
    RETURN claim {.id, .project, .subject, .predicate, .object, .status, .chunk_id}
  } AS claims,
  COLLECT {
    UNWIND normals AS normal
    MATCH (k:FactKey {tenant: $tenant, subject: normal})
    USING INDEX SEEK k:FactKey(tenant, subject, attribute) WHERE k.attribute IS NOT NULL
    MATCH (k)-[:CURRENT]->(fact:Fact)
    WITH DISTINCT fact ORDER BY fact.recorded_at DESC, fact.id SKIP $offset LIMIT $limit
    RETURN fact {.id, .key, .owner, .value_json, .status, .recorded_at}
  } AS facts,
  COLLECT {
    UNWIND normals AS normal
    MATCH (k:FactKey {tenant: $tenant, subject: normal})
    USING INDEX SEEK k:FactKey(tenant, subject, attribute) WHERE k.attribute IS NOT NULL
    MATCH (k)<-[:REOPEN_WHEN]-(:Alternative)<-[:HAS_ALTERNATIVE]-(d:Decision)
    WHERE d.status IN ['active', 'review_required', 'stale']
    WITH DISTINCT d ORDER BY d.updated_at DESC, d.id SKIP $offset LIMIT $limit
    RETURN d {.id, .project, .title, .status}
  } AS decisions,
  COLLECT {
    UNWIND members AS m
    MATCH (m)<-[:ASKS_ABOUT]-(q:SubjectQuestion {status: 'open'})-[:ASKS_ABOUT]->(other:Subject)
    WHERE other.id <> m.id
    WITH DISTINCT q, m, other ORDER BY q.asked_at, q.id LIMIT $limit
    RETURN q {.id, .evidence, .confidence, subject_id: m.id, other_id: other.id,
              other_name: other.name}
  } AS questions
