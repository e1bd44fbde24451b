// A fact key's other spellings: the keys whose subject part is a name of the same subject
// under the same attribute (graphmem/subjects/spellings.py), found by an index seek each.
CREATE INDEX fact_key_by_subject IF NOT EXISTS FOR (k:FactKey) ON (k.tenant, k.subject, k.attribute)
