// One mark of a pair written under its lock (tests/store/test_deadlock_retry.py): two
// transactions taking the pair in opposite orders deadlock.
MERGE (m:DeadlockMark {tenant: $tenant, n: $n})
SET m.by = $by
