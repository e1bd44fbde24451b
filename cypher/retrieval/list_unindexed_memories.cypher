// Memories of the tenant whose search fields were never set (a crash, a failed batch, another
// process that stopped): the fields they need, a batch at a time.
MATCH (m:Memory:Unindexed {tenant: $tenant})
RETURN m {.id, .title, .type, .topic_key, .tags, .content} AS memory
LIMIT $limit
