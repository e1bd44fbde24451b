// How often Neo4j may plan a statement again (tests/localdb/test_replan_interval.py).
SHOW SETTINGS YIELD name, value
WHERE name = 'dbms.cypher.min_replan_interval'
RETURN value
