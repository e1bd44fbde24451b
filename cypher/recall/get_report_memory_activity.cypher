// timeline_report: a project's memories aggregated for the report, read once by a range seek
// on (tenant, project, created_at), newest first, at most $max_rows of them. One row per
// (UTC year, month, status, type) with counts, estimated tokens (ceil(characters / 4) of title
// + content), tokens served (access_count × tokens) and first/last instants; and the $recent
// newest versions for the full report's timeline (0 for the compact one).
CALL () {
  MATCH (m:Memory)
  USING INDEX m:Memory(tenant, project, created_at)
  WHERE m.tenant = $tenant AND m.project = $project AND m.created_at IS NOT NULL
  WITH m ORDER BY m.tenant DESC, m.project DESC, m.created_at DESC LIMIT $max_rows
  WITH datetime({datetime: m.created_at, timezone: '+00:00'}) AS at, m.status AS status,
       m.type AS type, (size(m.title) + size(m.content) + 3) / 4 AS tokens,
       coalesce(m.access_count, 0) AS reads
  WITH at.year AS year, at.month AS month, status, type, count(*) AS memories,
       sum(tokens) AS tokens, sum(reads * tokens) AS served, sum(reads) AS reads,
       min(at) AS first, max(at) AS last
  RETURN collect({
    year: year, month: month, status: status, type: type, memories: memories,
    tokens: tokens, served: served, reads: reads, first: toString(first), last: toString(last)
  }) AS groups
}
CALL () {
  MATCH (m:Memory)
  USING INDEX m:Memory(tenant, project, created_at)
  WHERE m.tenant = $tenant AND m.project = $project AND m.created_at IS NOT NULL
  WITH m ORDER BY m.tenant DESC, m.project DESC, m.created_at DESC, m.id DESC LIMIT $recent
  RETURN collect({
    id: m.id, type: m.type, title: m.title, status: m.status,
    created_at: toString(datetime({datetime: m.created_at, timezone: '+00:00'}))
  }) AS recent
}
RETURN groups, recent
