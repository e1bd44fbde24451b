// Memories and turns whose subjects were not read yet, in the order they were written: the text to read (a
// memory's content: a title is headline-cased, so its words would all look like names; null
// for quarantined content, which names nothing), the names the writer gave (about), and the
// source a co-occurrence counts in (a memory itself; a turn's session).
CALL () {
  MATCH (m:Memory:Unread {tenant: $tenant})
  RETURN 'memory' AS kind, m.id AS id, m.id AS source,
         CASE WHEN m.status = 'quarantined' THEN null ELSE m.content END AS text,
         CASE WHEN m.status = 'quarantined' THEN [] ELSE coalesce(m.about, []) END AS about,
         m.created_at AS at
  ORDER BY at, id
  LIMIT $limit
  UNION ALL
  MATCH (t:Turn:Unread {tenant: $tenant})
  RETURN 'turn' AS kind, t.id AS id, t.session_id AS source,
         CASE WHEN t.quarantined THEN null ELSE t.content END AS text,
         [] AS about, t.archived_at AS at
  ORDER BY at, id
  LIMIT $limit
}
RETURN kind, id, source, text, about
ORDER BY at, id
LIMIT $limit
