// Store a checked attestation and mark the fact verified (only verify_fact runs this).
MATCH (f:Fact {tenant: $tenant, id: $id})
SET f.verification_status = 'verified', f.verification_json = $verification_json,
    f.updated_at = datetime($now)
RETURN f AS fact
