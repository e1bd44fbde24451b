// graphmem import: one batch of nodes, marked ImportPending with their file reference until
// the relationships are linked (finish_import removes both). The rows already name the target
// tenant (a uniqueness constraint is checked at each SET). Temporal values come as Cypher's
// own text with their kind, and are read back here.
UNWIND $nodes AS row
CREATE (n:$(row.labels + ['ImportPending']))
SET n = row.properties, n.tenant = $tenant, n.import_ref = row.ref
FOREACH (t IN row.temporal | SET n[t[0]] = CASE t[1]
  WHEN 'datetime' THEN datetime(t[2]) WHEN 'localdatetime' THEN localdatetime(t[2])
  WHEN 'date' THEN date(t[2]) WHEN 'duration' THEN duration(t[2])
  WHEN 'time' THEN time(t[2]) WHEN 'localtime' THEN localtime(t[2])
  WHEN 'datetime[]' THEN [x IN t[2] | datetime(x)]
  WHEN 'localdatetime[]' THEN [x IN t[2] | localdatetime(x)]
  WHEN 'date[]' THEN [x IN t[2] | date(x)] WHEN 'duration[]' THEN [x IN t[2] | duration(x)]
  WHEN 'time[]' THEN [x IN t[2] | time(x)] WHEN 'localtime[]' THEN [x IN t[2] | localtime(x)]
END)
RETURN count(n) AS created
