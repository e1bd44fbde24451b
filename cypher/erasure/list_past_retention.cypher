// maintain's retention: what is past its retention, at most $limit: raw sessions whose last
// turn is older than their project's raw cutoff ($raw: {default, projects}), and memories
// (stale, rejected, deleted) and facts (superseded, invalidated, expired) retired before their
// project's cutoff ($retired). A null cutoff keeps everything of its kind.
CALL () {
  MATCH (n:Session)
  WHERE n.tenant = $tenant AND $raw IS NOT NULL AND n.project IS NOT NULL
    AND n.last_ts < datetime(coalesce($raw.projects[n.project], $raw.default))
  RETURN n, 'Session' AS kind LIMIT $limit
  UNION
  MATCH (n:Memory)
  WHERE n.tenant = $tenant AND $retired IS NOT NULL
    AND n.status IN ['stale', 'rejected', 'deleted']
    AND n.updated_at < datetime(coalesce($retired.projects[n.project], $retired.default))
  RETURN n, 'Memory' AS kind LIMIT $limit
  UNION
  MATCH (n:Fact)
  WHERE n.tenant = $tenant AND $retired IS NOT NULL
    AND n.status IN ['superseded', 'invalidated', 'expired'] AND n.recorded_at IS NOT NULL
    AND coalesce(n.superseded_at, n.updated_at, n.recorded_at)
        < datetime(coalesce($retired.projects[n.project], $retired.default))
  RETURN n, 'Fact' AS kind LIMIT $limit
}
WITH n, kind LIMIT $limit
RETURN elementId(n) AS ref, kind, n.id AS id
