// Archived turns of the tenant still waiting for their vector (graphmem/retrieval/indexing.py:
// a crash, a failed batch, another process that stopped, or a turn whose previous turn was
// erased, or a late turn's successor): a batch at a time, from the Unembedded label's index
// by tenant, never from the tenant's turns or another tenant's waiting ones.
MATCH (t:Turn:Unembedded {tenant: $tenant}) USING INDEX t:Unembedded(tenant)
RETURN t.id AS id
LIMIT $limit
