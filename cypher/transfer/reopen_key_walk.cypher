// graphmem import, just before finish_import (an import that fails after it is still undone):
// fact keys imported from an older export may lack their subject (FactKey.subject), so the
// subjects pass walks the tenant's keys once more (graphmem/subjects/key_walk.py), naming those
// that lack it.
MATCH (l:SubjectLedger {tenant: $tenant})
REMOVE l.keys_done, l.keys_walked
