// A dry run's sample: a short preview of what each selected node holds.
UNWIND $refs AS ref
MATCH (n) WHERE elementId(n) = ref AND n.tenant = $tenant
RETURN ref, left(toString(coalesce(n.title, n.key, n.content, n.body, n.text, n.message,
                                   n.summary, n.subject, n.session_ref, '')), 80) AS preview
