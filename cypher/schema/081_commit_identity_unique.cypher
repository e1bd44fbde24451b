// One Commit node per (tenant, project, full sha): record_commit is idempotent on it.
CREATE CONSTRAINT commit_identity_unique IF NOT EXISTS
FOR (c:Commit) REQUIRE (c.tenant, c.project, c.sha) IS UNIQUE
