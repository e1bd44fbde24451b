// Split: undo the merge of one subject (its MERGED_INTO goes); what it holds never moved, so
// it stands again exactly as before the merge. No row: it was not merged.
MATCH (s:Subject {tenant: $tenant, id: $subject_id})-[merge:MERGED_INTO]->(into:Subject)
WITH s, merge, into, merge.revision AS merged_at_revision
DELETE merge
SET s.updated_at = datetime($now), into.updated_at = datetime($now)
RETURN into.id AS into_id, merged_at_revision
