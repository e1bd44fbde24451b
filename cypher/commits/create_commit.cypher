// record_commit: a new commit (its message already screened by the poisoning gate).
CREATE (c:Commit {
  tenant: $tenant, project: $project, sha: $sha, short_sha: $short_sha, message: $message,
  message_quarantined: $quarantined, quarantine_reasons: $quarantine_reasons,
  redactions: $redactions, author: $author,
  committed_at: CASE WHEN $committed_at IS NULL THEN null ELSE datetime($committed_at) END,
  branch: $branch, files: $files, recorded_at: datetime($now)
})
RETURN c AS commit
