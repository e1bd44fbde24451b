// search, graph channel over the raw archive: the turns said just before and after the best
// hits in the same session (NEXT, up to $depth steps either way), with their distance.
UNWIND $seeds AS seed
MATCH (t:Turn {tenant: $tenant, id: seed})
MATCH p = (t)-[:NEXT*1..2]-(n:Turn)
WHERE length(p) <= $depth AND n.tenant = $tenant AND NOT n.quarantined
RETURN seed, n.id AS id, null AS type, min(length(p)) AS distance
