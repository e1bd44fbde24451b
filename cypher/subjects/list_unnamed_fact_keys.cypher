// Fact keys written before a key's subject was stored on it (FactKey.subject and attribute,
// graphmem/subjects/spellings.py), walked once per tenant in id order, a step per pass: the
// ledger keeps where the walk is (keys_walked) and, once it reaches the end, that it is done
// (keys_done). Each key of the step, and whether it still lacks its subject.
MATCH (l:SubjectLedger {tenant: $tenant})
WHERE l.keys_done IS NULL
MATCH (k:FactKey) USING INDEX k:FactKey(tenant, id)
WHERE k.tenant = $tenant AND k.id > coalesce(l.keys_walked, '')
WITH k ORDER BY k.tenant, k.id LIMIT $limit
RETURN k.id AS id, k.key AS key, k.subject IS NULL AS unnamed
