// Whether a workstream exists in the tenant (chunks and packs may name one).
MATCH (w:Workstream {tenant: $tenant, id: $id})
RETURN w.id AS id
