// Set a fact's lifecycle fields (computed by the facts domain under the tenant's write lock).
// superseded_at changes only when $set_superseded_at is true.
MATCH (f:Fact {tenant: $tenant, id: $id})
SET f.status = $status, f.valid_to = datetime($valid_to), f.expires_at = datetime($expires_at),
    f.effective_until = datetime($effective_until),
    f.invalidated_at = datetime($invalidated_at),
    f.superseded_at = CASE WHEN $set_superseded_at THEN datetime($superseded_at)
                           ELSE f.superseded_at END,
    f.verification_status = $verification_status, f.updated_at = datetime($now)
RETURN f AS fact
