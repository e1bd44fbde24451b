// A subjects pass records what it resolved in one transaction (graphmem/subjects/reading.py),
// a statement per kind of record, each run only with something to record: each mention,
// from its source to its subject and spelling (a source erased meanwhile has none).
UNWIND $mentions AS item
MATCH (s:Subject {tenant: $tenant, id: item.subject_id})
OPTIONAL MATCH (a:Alias {tenant: $tenant, id: item.alias_id})
OPTIONAL MATCH (memory:Memory {tenant: $tenant, id: item.source_id})
WHERE item.source_kind = 'memory'
OPTIONAL MATCH (turn:Turn {tenant: $tenant, id: item.source_id})
WHERE item.source_kind = 'turn'
OPTIONAL MATCH (chunk:Chunk {tenant: $tenant, id: item.source_id})
WHERE item.source_kind = 'chunk'
OPTIONAL MATCH (claim:Claim {tenant: $tenant, id: item.source_id})
WHERE item.source_kind = 'claim'
WITH s, a, item, coalesce(memory, turn, chunk, claim) AS origin
WHERE origin IS NOT NULL
CREATE (origin)-[:HAS_MENTION]->(m:Mention {
  tenant: $tenant, id: item.id, subject_id: s.id, alias_id: a.id, source: item.source,
  source_kind: item.source_kind, source_id: item.source_id, written: item.written,
  evidence: item.evidence, at: datetime($now)
})-[:NAMES]->(s)
FOREACH (spelling IN CASE WHEN a IS NULL THEN [] ELSE [a] END | CREATE (m)-[:AS]->(spelling))
