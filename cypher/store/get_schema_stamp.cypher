// The digest of the schema statements last applied in full (graphmem/store/store.py): a start
// whose catalogue has the same digest applies nothing. Database-wide, like the schema.
MATCH (stamp:SchemaStamp {name: 'graphmem'})
RETURN stamp.digest AS digest
