// Every tenant that has written (each holds a history head), for operator commands that go
// over the whole database (`graphmem embeddings backfill`).
MATCH (head:History)
RETURN head.tenant AS tenant
ORDER BY tenant
