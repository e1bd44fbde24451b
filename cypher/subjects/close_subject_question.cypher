// A person's answer "different" to an open subject question: the two stay apart and the
// question is closed with who, why and the revision. ("Same" is a merge: merge_subjects
// settles the question as it joins the two.)
MATCH (q:SubjectQuestion {tenant: $tenant, id: $id})
WHERE q.status = 'open'
SET q.status = 'answered_different', q.answered_at = datetime($now), q.revision = $revision,
    q.reason = $reason, q.actor = $actor
RETURN q.id AS id
