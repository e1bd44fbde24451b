// A subjects pass records what it resolved in one transaction (graphmem/subjects/reading.py),
// a statement per kind of record, each run only with something to record: each mention,
// from its source to its subject and spelling. The source is found as the pass left it, Unread
// (close_read_sources closes it after this), by one index seek (its kind checked: ids are unique
// per kind); a source erased meanwhile is not Unread any more and gets none.
UNWIND $mentions AS item
MATCH (s:Subject {tenant: $tenant, id: item.subject_id})
OPTIONAL MATCH (a:Alias {tenant: $tenant, id: item.alias_id})
MATCH (origin:Unread {tenant: $tenant, id: item.source_id})
WHERE item.source_kind = CASE WHEN origin:Memory THEN 'memory' WHEN origin:Turn THEN 'turn'
                              WHEN origin:Chunk THEN 'chunk' WHEN origin:Claim THEN 'claim' END
CREATE (origin)-[:HAS_MENTION]->(m:Mention {
  tenant: $tenant, id: item.id, subject_id: s.id, alias_id: a.id, source: item.source,
  source_kind: item.source_kind, source_id: item.source_id, written: item.written,
  evidence: item.evidence, at: datetime($now)
})-[:NAMES]->(s)
FOREACH (spelling IN CASE WHEN a IS NULL THEN [] ELSE [a] END | CREATE (m)-[:AS]->(spelling))
