// A node a member writes before it fails: its failure then cannot leave the batch untouched
// (tests/history/test_group_commit_failures.py).
CREATE (:GroupCommitMark {tenant: $tenant, n: $n})
