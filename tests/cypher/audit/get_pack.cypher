// Test helper: a pack with the workstreams it is linked to.
MATCH (p:Pack {tenant: $tenant, id: $id})
RETURN p AS pack, [(p)-[:FOR_WORKSTREAM]->(w:Workstream) | w.id] AS workstreams
