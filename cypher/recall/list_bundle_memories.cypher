// context_bundle: the project's memories the graph knew at $known_until (created by then),
// newest first, at most $cap, content cut to $text_chars. Rejected and deleted memories never
// appear. Each says what it was at $at (null: now, read from its status): live (active then),
// superseded (retired by then by a successor created by then), quarantined (not active yet).
MATCH (m:Memory)
USING INDEX m:Memory(tenant, project, created_at)
WHERE m.tenant = $tenant AND m.project = $project AND m.created_at <= datetime($known_until)
  AND NOT m.status IN ['rejected', 'deleted']
WITH m ORDER BY m.created_at DESC, m.id DESC LIMIT $cap
OPTIONAL MATCH (successor:Memory {tenant: $tenant, id: m.superseded_by})
RETURN m.id AS id, m.type AS type, m.title AS title, left(m.content, $text_chars) AS text,
       m.branch AS branch, m.status AS status, toString(m.created_at) AS created_at,
       CASE WHEN $at IS NULL THEN m.status = 'active'
            ELSE coalesce(m.active_from <= datetime($at)
                          AND (m.retired_at IS NULL OR m.retired_at > datetime($at)), false)
       END AS live,
       CASE WHEN $at IS NULL THEN m.status = 'stale' AND m.superseded_by IS NOT NULL
            ELSE coalesce(m.retired_at <= datetime($at)
                          AND successor.created_at <= datetime($at), false)
       END AS superseded,
       CASE WHEN $at IS NULL THEN m.status = 'quarantined'
            ELSE m.active_from IS NULL OR m.active_from > datetime($at)
       END AS quarantined
