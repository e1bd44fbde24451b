// graphmem import, last step: the imported nodes lose their import marks, in batches. A memory,
// turn, chunk or claim that came without its mentions (a project's slice leaves subjects out:
// they are the tenant's) is read for its subjects again (Unread; graphmem/subjects/reading.py).
MATCH (n:ImportPending) USING INDEX n:ImportPending(tenant, import_ref)
WHERE n.tenant = $tenant AND n.import_ref IS NOT NULL
CALL (n) {
  REMOVE n:ImportPending REMOVE n.import_ref
  FOREACH (_ IN CASE WHEN (n:Memory OR n:Turn OR n:Chunk OR n:Claim) AND NOT EXISTS { (n)-[:HAS_MENTION]->() }
                THEN [1] ELSE [] END | SET n:Unread)
} IN TRANSACTIONS OF 10000 ROWS
