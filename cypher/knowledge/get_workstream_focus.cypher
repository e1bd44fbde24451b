// The words a task-scoped pack is about: one workstream's title and next action.
MATCH (w:Workstream {tenant: $tenant, id: $id})
RETURN w.id AS id, w.title AS title, w.next_action AS next_action, w.status AS status
