// bench.peers' write floor: the least durable write of a turn, one node on no index (the
// tenant's scratch data, purged with it).
CREATE (t:BenchTurn {tenant: $tenant, name: $turn, text: $text})
RETURN t.name AS name
