// A step of the walk over fact keys written before their subject was stored
// (list_unnamed_fact_keys): each key read gets its subject and attribute (null: the key names
// none), the ledger where the walk is, and that it is done when the step was the last.
MATCH (l:SubjectLedger {tenant: $tenant})
SET l.keys_walked = coalesce($last, l.keys_walked), l.keys_done = CASE WHEN $done THEN true END
WITH l
UNWIND $keys AS item
MATCH (k:FactKey {tenant: $tenant, id: item.id})
WHERE k.subject IS NULL
SET k.subject = item.subject, k.attribute = item.attribute
