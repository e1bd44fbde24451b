// Browser guide: the merges of subjects a person decided, newest first: who (actor), why
// (reason) and the history revision (merge_subjects; split_subject removes one).
MATCH merge = (s:Subject)-[m:MERGED_INTO]->(into:Subject)
WHERE s.tenant = $tenant
RETURN merge, m.revision AS revision, m.actor AS actor, m.reason AS reason
ORDER BY m.revision DESC
LIMIT 100
