// A subjects pass of the tenant starts here: the ledger node's lock is held to the commit, so
// passes (and merges) of one tenant resolve one after the other, in any process. With it,
// whether the walks a pass takes a step of are done: the sources written before subjects
// (label_unread_backlog) and the fact keys written before their subject (name_fact_keys).
MERGE (l:SubjectLedger {tenant: $tenant})
SET l.at = datetime($now)
RETURN l.tenant AS tenant,
       coalesce(l.backlog_done AND l.knowledge_backlog_done, false) AS sources_walked,
       coalesce(l.keys_done, false) AS keys_named
