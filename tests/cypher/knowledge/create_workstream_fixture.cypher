// Test fixture (create_workstream arrives with a later issue): one workstream node.
CREATE (w:Workstream {tenant: $tenant, id: $id, title: $title, next_action: $next_action,
                      status: $status})
RETURN w.id AS id
