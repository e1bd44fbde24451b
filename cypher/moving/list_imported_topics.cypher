// graphmem import --from mcp-neo4j-memory: which of a page's topic keys (each derived from
// the peer's content) the project already holds, in any status: an item imported before is
// not written again, even if it was since made stale, rejected or quarantined. A seek of
// Memory(tenant, topic_key, project, topic_version) per key, chosen without a hint: a dry run
// on a database graphmem's schema was never applied to (nothing imported) must still read.
UNWIND $topic_keys AS key
MATCH (m:Memory)
WHERE m.tenant = $tenant AND m.topic_key = key AND m.project = $project
  AND m.topic_version IS NOT NULL
RETURN DISTINCT key AS topic_key
