// Sources whose subjects were not read yet (memories, turns, chunks, claims), in the order they
// were written: the text to read, at most $max_chars of it (a memory's content and a chunk's
// body, not their titles: a title is headline-cased, so its words would all look like names; a
// claim's statement, "subject predicate object"; null for quarantined text, which names
// nothing), the names the writer gave (about), and the source a co-occurrence counts in (a
// memory or chunk itself; a turn's session; a claim's chunk, the text it was mined from), and
// the stamp of the text read (a memory's version, a chunk's source hash: close_read_sources).
CALL () {
  MATCH (m:Memory:Unread {tenant: $tenant}) USING INDEX m:Unread(tenant, id)
  WHERE m.id IS NOT NULL
  RETURN 'memory' AS kind, m.id AS id, m.id AS source,
         CASE WHEN m.status = 'quarantined' THEN null ELSE left(m.content, $max_chars) END AS text,
         CASE WHEN m.status = 'quarantined' THEN [] ELSE coalesce(m.about, []) END AS about,
         coalesce(toString(m.version), '') AS stamp, m.created_at AS at
  ORDER BY at, id
  LIMIT $limit
  UNION ALL
  MATCH (t:Turn:Unread {tenant: $tenant}) USING INDEX t:Unread(tenant, id)
  WHERE t.id IS NOT NULL
  RETURN 'turn' AS kind, t.id AS id, t.session_id AS source,
         CASE WHEN t.quarantined THEN null ELSE left(t.content, $max_chars) END AS text,
         [] AS about, '' AS stamp, t.archived_at AS at
  ORDER BY at, id
  LIMIT $limit
  UNION ALL
  MATCH (c:Chunk:Unread {tenant: $tenant}) USING INDEX c:Unread(tenant, id)
  WHERE c.id IS NOT NULL
  RETURN 'chunk' AS kind, c.id AS id, c.id AS source,
         CASE WHEN coalesce(c.quarantined, false) THEN null ELSE left(c.body, $max_chars) END
           AS text,
         [] AS about, coalesce(c.source_hash, '') AS stamp, c.updated_at AS at
  ORDER BY at, id
  LIMIT $limit
  UNION ALL
  MATCH (cl:Claim:Unread {tenant: $tenant}) USING INDEX cl:Unread(tenant, id)
  WHERE cl.id IS NOT NULL
  RETURN 'claim' AS kind, cl.id AS id, coalesce(cl.chunk_id, cl.id) AS source,
         left(cl.subject + ' ' + replace(cl.predicate, '_', ' ') + ' ' + cl.object, $max_chars)
           AS text,
         [] AS about, '' AS stamp, cl.created_at AS at
  ORDER BY at, id
  LIMIT $limit
}
RETURN kind, id, source, text, about, stamp
ORDER BY at, id
LIMIT $limit
