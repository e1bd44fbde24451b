// Test fixture: a workstream node (create_workstream arrives with a later issue).
CREATE (w:Workstream {tenant: $tenant, id: $id, title: $id, status: 'active'})
RETURN w.id AS id
