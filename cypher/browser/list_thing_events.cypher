// Browser guide (bookkeeping on purpose): the history events of one thing (the writes whose
// aggregate it is: a fact, a decision, a memory, a chunk, ...), newest first.
MATCH (e:Event)
WHERE e.tenant = $tenant AND e.aggregate_id = $id
RETURN e.revision AS revision, e.op AS op, e.at AS at, e.aggregate_kind AS kind,
       e.actor AS actor, e.session_id AS session_id
ORDER BY revision DESC
LIMIT 100
