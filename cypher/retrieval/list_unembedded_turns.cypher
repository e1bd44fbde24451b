// Archived turns of the tenant still waiting for their vector (graphmem/retrieval/indexing.py:
// a crash, a failed batch, another process that stopped, or a turn whose previous turn was
// erased): a batch at a time. Read from the Unembedded label, the queue itself (few nodes),
// never from the tenant's turns.
MATCH (t:Turn:Unembedded {tenant: $tenant}) USING SCAN t:Unembedded
RETURN t.id AS id
LIMIT $limit
