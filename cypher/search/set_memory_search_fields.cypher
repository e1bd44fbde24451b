// Write-behind search fields (graphmem/search/indexing.py): one statement sets the full-text
// tokens and the vector of a batch of the tenant's saved memories, so the indexes refresh once
// per batch; the Unindexed label goes with them.
UNWIND $memories AS item
MATCH (m:Memory {tenant: $tenant, id: item.id})
SET m.lexical = item.lexical, m.embedding = item.embedding
REMOVE m:Unindexed
RETURN count(m) AS indexed
