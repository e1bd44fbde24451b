// Browser guide: the merges of subjects a person decided, newest first: who (actor), why
// (reason) and the history revision (merge_subjects; split_subject removes one). The tenant's
// subjects by an index seek, then each one's merge.
MATCH (s:Subject) USING INDEX s:Subject(tenant, id)
WHERE s.tenant = $tenant AND s.id IS NOT NULL
MATCH merge = (s)-[m:MERGED_INTO]->(:Subject)
RETURN merge, m.revision AS revision, m.actor AS actor, m.reason AS reason
ORDER BY m.revision DESC
LIMIT 100
