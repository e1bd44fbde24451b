// Erase the payloads of events (and the audit fields beside them, which name people): the
// payload, its salt and who wrote go; the digest, the hash and the links stay, so the chain
// still verifies. Each is marked with the erasure's revision and sealed (history/erasure.py).
UNWIND $events AS ev
MATCH (e:Event {tenant: $tenant, revision: ev.revision})
WHERE e.erased_by IS NULL
SET e.erased_by = $erased_by, e.erasure_seal = ev.seal, e.seal_key_id = $seal_key_id
REMOVE e.payload_json, e.payload_salt, e.session_id, e.actor, e.client
RETURN count(e) AS erased
