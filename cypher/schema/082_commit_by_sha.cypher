// lookup_commit: full or abbreviated sha (prefix seek) within a tenant, any project.
CREATE INDEX commit_by_sha IF NOT EXISTS FOR (c:Commit) ON (c.tenant, c.sha)
