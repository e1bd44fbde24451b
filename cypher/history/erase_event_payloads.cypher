// Erase the payloads of events: the payload and its salt go; the digest, the hash, the links
// and who wrote stay (an erasure of what an actor wrote removes that at its end), so the chain
// still verifies. Each is marked with the erasure's revision and sealed (history/erasure.py).
UNWIND $events AS ev
MATCH (e:Event {tenant: $tenant, revision: ev.revision})
WHERE e.erased_by IS NULL
SET e.erased_by = $erased_by, e.erasure_seal = ev.seal, e.seal_key_id = $seal_key_id
REMOVE e.payload_json, e.payload_salt
RETURN count(e) AS erased
