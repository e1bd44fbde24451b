// A statement that runs until its transaction's timeout stops it: a slow member of a group
// commit (tests/history/test_group_commit_failures.py).
UNWIND range(1, 2000000000) AS n
WITH n WHERE n < 0
RETURN count(n) AS found
