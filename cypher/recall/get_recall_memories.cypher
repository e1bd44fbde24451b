// recall_user_context: the memories search selected (profile preferences and query matches),
// each with its content cut to $text_chars and the kinds of secrets redacted when it was saved
// (include_sensitive=false drops those).
UNWIND $ids AS id
MATCH (m:Memory {tenant: $tenant, id: id})
RETURN m.id AS id, m.type AS type, m.title AS title, left(m.content, $text_chars) AS text,
       m.status AS status, coalesce(m.redactions, []) AS redactions
