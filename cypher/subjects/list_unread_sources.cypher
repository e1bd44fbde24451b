// Sources whose subjects were not read yet (memories, turns, chunks, claims: an imported node
// of another kind marked Unread is passed over, never read nor left in front of the page, and
// an import's nodes only once it has finished: an import undone takes them whole),
// oldest first (ids grow with time), found in the order of the Unread(tenant, id) index, so the page is cut by a
// limit on an index seek, never a sort: the text to read, at most $max_chars of it (a memory's
// content and a chunk's body, not their titles: a title is headline-cased, so its words would
// all look like names; a claim's statement, "subject predicate object"; null for quarantined
// text, which names nothing), the names the writer gave (about), the source a co-occurrence
// counts in (a memory or chunk itself; a turn's session; a claim's chunk, the text it was
// mined from), and the stamp of the text read (a memory's version, a chunk's source hash:
// close_read_sources).
// The kinds' test is a CASE, not an OR: the planner splits an OR of labels into a union of
// seeks and, on a graph with nothing unread yet (a fresh database), sorts the union.
MATCH (n:Unread) USING INDEX n:Unread(tenant, id)
WHERE n.tenant = $tenant AND n.id > ''
  AND CASE WHEN n:Memory OR n:Turn OR n:Chunk OR n:Claim THEN true ELSE false END
  AND NOT n:ImportPending
WITH n ORDER BY n.tenant, n.id LIMIT $limit
WITH n, CASE WHEN n:Memory THEN 'memory' WHEN n:Turn THEN 'turn'
             WHEN n:Chunk THEN 'chunk' ELSE 'claim' END AS kind
RETURN kind, n.id AS id,
       CASE kind WHEN 'turn' THEN n.session_id WHEN 'claim' THEN coalesce(n.chunk_id, n.id)
                 ELSE n.id END AS source,
       CASE kind
         WHEN 'memory' THEN CASE WHEN n.status = 'quarantined' THEN null
                                 ELSE left(n.content, $max_chars) END
         WHEN 'turn' THEN CASE WHEN n.quarantined THEN null ELSE left(n.content, $max_chars) END
         WHEN 'chunk' THEN CASE WHEN coalesce(n.quarantined, false) THEN null
                                ELSE left(n.body, $max_chars) END
         ELSE left(n.subject + ' ' + replace(n.predicate, '_', ' ') + ' ' + n.object, $max_chars)
       END AS text,
       CASE WHEN kind = 'memory' AND coalesce(n.status, '') <> 'quarantined' THEN coalesce(n.about, [])
            ELSE [] END AS about,
       CASE kind WHEN 'memory' THEN coalesce(toString(n.version), '')
                 WHEN 'chunk' THEN coalesce(n.source_hash, '') ELSE '' END AS stamp
