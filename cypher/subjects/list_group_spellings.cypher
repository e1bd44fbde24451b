// Each name's spellings: the normal forms of every alias of the one subject group (a root and
// every subject merged into it) whose subjects bear the name, the name among them. A name
// borne by subjects of several groups (namesakes kept apart), or by none (a subject the
// memory does not know), has none: it joins nothing. An index seek per name.
UNWIND $names AS name
CALL (name) {
  OPTIONAL MATCH (:SubjectKey {tenant: $tenant, key: 'n:' + name})-[:KEYS]->(:Alias)
                 -[:OF]->(s:Subject)
  OPTIONAL MATCH (s)-[:MERGED_INTO*0..]->(root:Subject)
  WHERE NOT EXISTS { (root)-[:MERGED_INTO]->() }
  WITH collect(DISTINCT root) AS roots
  UNWIND CASE size(roots) WHEN 1 THEN roots ELSE [null] END AS root
  RETURN COLLECT {
    MATCH (root)<-[:MERGED_INTO*0..]-(:Subject)<-[:OF]-(a:Alias)
    RETURN DISTINCT a.normal ORDER BY a.normal <> name, a.normal LIMIT $limit
  } AS spellings
}
RETURN name, spellings
