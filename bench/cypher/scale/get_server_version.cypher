// bench.sizes: the Neo4j server's name, version and edition, for the configuration line.
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
