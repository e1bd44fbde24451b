// timeline (source memory): one anchor memory (in $project when given) and the memories of its
// project saved just before and just after it, by (created_at, id), each side newest-nearest
// first and one more than asked (the extra one says more exist). Neighbours are read by range
// seeks on (tenant, project, created_at), in index order, so a long history is not read.
MATCH (a:Memory {tenant: $tenant, id: $anchor})
WHERE $project IS NULL OR a.project = $project
CALL (a) {
  MATCH (m:Memory)
  USING INDEX m:Memory(tenant, project, created_at)
  WHERE m.tenant = $tenant AND m.project = a.project AND m.created_at <= a.created_at
    AND CASE WHEN m.created_at = a.created_at THEN m.id < a.id ELSE true END
    AND m.status IN $statuses
  // ordered by the whole index key: the seek returns index order, PartialTop stops early
  WITH m ORDER BY m.tenant DESC, m.project DESC, m.created_at DESC, m.id DESC
       LIMIT $depth_before + 1
  RETURN collect(m {
    .id, .type, .title, .topic_key, .topic_version, .status, .session_id,
    content: left(m.content, $preview_chars + 1), created_at: toString(m.created_at)
  }) AS before
}
CALL (a) {
  MATCH (m:Memory)
  USING INDEX m:Memory(tenant, project, created_at)
  WHERE m.tenant = $tenant AND m.project = a.project AND m.created_at >= a.created_at
    AND CASE WHEN m.created_at = a.created_at THEN m.id > a.id ELSE true END
    AND m.status IN $statuses
  WITH m ORDER BY m.tenant, m.project, m.created_at, m.id LIMIT $depth_after + 1
  RETURN collect(m {
    .id, .type, .title, .topic_key, .topic_version, .status, .session_id,
    content: left(m.content, $preview_chars + 1), created_at: toString(m.created_at)
  }) AS after
}
RETURN a {
  .id, .project, .type, .title, .topic_key, .topic_version, .status, .session_id,
  content: left(a.content, $preview_chars + 1), created_at: toString(a.created_at)
} AS anchor, before, after
