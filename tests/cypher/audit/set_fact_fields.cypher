// Test fixture: overwrite fields of a fact (drift no tool produces).
MATCH (f:Fact {tenant: $tenant, id: $id})
SET f += $fields
RETURN f.id AS id
