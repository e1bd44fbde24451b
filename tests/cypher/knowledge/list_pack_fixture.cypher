// Test helper: every pack of the tenant, with its INCLUDES edges and workstream.
MATCH (p:Pack {tenant: $tenant})
RETURN p {.*, created_at: toString(p.created_at), retired_at: toString(p.retired_at)} AS pack,
       [(p)-[r:INCLUDES]->(n) | {id: n.id, rank: r.rank, tokens: r.tokens,
                                 section: r.section}] AS includes,
       [(p)-[:FOR_WORKSTREAM]->(w) | w.id] AS workstreams
ORDER BY p.created_at
