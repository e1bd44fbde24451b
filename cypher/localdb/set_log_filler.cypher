// After an erasure on the managed Neo4j: one transaction of filler (random text, no content)
// on the tenant's one LogFiller node, so the transaction log moves past the erased content and
// rotates; with the managed config's retention, the next checkpoint deletes the older files.
MERGE (f:LogFiller {tenant: $tenant})
SET f.filler = $filler, f.at = datetime($now)
RETURN size(f.filler) AS written
