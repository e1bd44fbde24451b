// graphmem import: one batch of relationships between nodes this import created (temporal
// values as create_imported_nodes reads them).
UNWIND $relationships AS row
MATCH (a:ImportPending {tenant: $tenant, import_ref: row.from_ref})
MATCH (b:ImportPending {tenant: $tenant, import_ref: row.to_ref})
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.properties
FOREACH (t IN row.temporal | SET r[t[0]] = CASE t[1]
  WHEN 'datetime' THEN datetime(t[2]) WHEN 'localdatetime' THEN localdatetime(t[2])
  WHEN 'date' THEN date(t[2]) WHEN 'duration' THEN duration(t[2])
  WHEN 'time' THEN time(t[2]) WHEN 'localtime' THEN localtime(t[2])
  WHEN 'datetime[]' THEN [x IN t[2] | datetime(x)]
  WHEN 'localdatetime[]' THEN [x IN t[2] | localdatetime(x)]
  WHEN 'date[]' THEN [x IN t[2] | date(x)] WHEN 'duration[]' THEN [x IN t[2] | duration(x)]
  WHEN 'time[]' THEN [x IN t[2] | time(x)] WHEN 'localtime[]' THEN [x IN t[2] | localtime(x)]
END)
RETURN count(r) AS created
