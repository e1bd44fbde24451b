// Record that every schema statement of this digest is applied (graphmem/store/store.py).
MERGE (stamp:SchemaStamp {name: 'graphmem'})
SET stamp.digest = $digest, stamp.applied_at = datetime()
RETURN stamp.digest AS digest
