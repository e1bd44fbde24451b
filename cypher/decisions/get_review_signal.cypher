// One review signal's status by id.
MATCH (s:ReviewSignal {tenant: $tenant, id: $id})
RETURN s.status AS status
