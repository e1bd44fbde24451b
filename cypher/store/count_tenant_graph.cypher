// The caller's tenant in numbers: facts per owner and status, key slots, and its history head
// (revision 0 and no hash before its first write).
CALL () {
  MATCH (f:Fact)
  USING INDEX f:Fact(tenant, slot_id, recorded_at)
  WHERE f.tenant = $tenant AND f.slot_id IS NOT NULL AND f.recorded_at IS NOT NULL
  WITH f.owner AS owner, f.status AS status, count(*) AS n
  RETURN collect({owner: owner, status: status, n: n}) AS facts
}
CALL () {
  MATCH (k:FactKey)
  USING INDEX k:FactKey(tenant, key)
  WHERE k.tenant = $tenant AND k.key IS NOT NULL
  RETURN count(k) AS fact_keys
}
CALL () {
  OPTIONAL MATCH (h:History {tenant: $tenant})
  RETURN coalesce(h.revision, 0) AS revision, h.last_hash AS last_hash, h.last_at AS last_at
}
RETURN facts, fact_keys, revision, last_hash, last_at
