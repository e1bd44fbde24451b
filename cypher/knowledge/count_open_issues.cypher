// audit_memory: how many issues of the tenant are open (index seek on status).
MATCH (i:Issue)
WHERE i.tenant = $tenant AND i.status = 'open' AND i.last_detected_at IS NOT NULL
RETURN count(i) AS open
