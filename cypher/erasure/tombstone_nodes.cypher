// Erase nodes ($nodes: ref, kind, id; a ref whose id differs is another node by now, and one
// erased already stays as it is), leaving a tombstone each: the label Erased and only the
// tenant, id, the kind it was, when and by which erasure. Its domain labels go with its
// content, so no read, index or constraint of the kind sees it (its full-text fields and
// vectors leave their indexes); its relationships stay as structure with their content
// properties removed, except a reopen rule, which is only content and goes.
UNWIND $nodes AS row
MATCH (n)
WHERE elementId(n) = row.ref AND n.tenant = $tenant AND coalesce(n.id, n.sha) = row.id
  AND NOT n:Erased
CALL (n) {
  MATCH (n)-[rule:REOPEN_WHEN]-() DELETE rule
}
CALL (n) {
  MATCH (n)-[r]-()
  SET r = {since: r.since, until: r.until, at: r.at, cleared_at: r.cleared_at}
}
REMOVE n:Memory:Unindexed:Fact:FactKey:Chunk:Claim:Question:Answer:Annotation:Decision
REMOVE n:Alternative:Attempt:Outcome:ReviewSignal:Workstream:Commit:Session:Turn:Pack:Issue
REMOVE n:ImportPending:Unembedded:Unread:Mention:Alias:SubjectKey:Subject:SubjectQuestion
SET n = {tenant: $tenant, id: row.id, erased_kind: row.kind, erased_at: datetime($now),
         erasure_id: $erasure_id, erased_by: $revision}
SET n:Erased
RETURN collect(elementId(n)) AS refs
