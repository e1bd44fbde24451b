// The one record of which schema this database has (graphmem/store/store.py apply_schema).
CREATE CONSTRAINT schema_stamp_name_unique IF NOT EXISTS
FOR (stamp:SchemaStamp) REQUIRE stamp.name IS UNIQUE
