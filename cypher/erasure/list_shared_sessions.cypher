// An erasure of what one actor wrote, under the tenant's lock: the raw sessions among its
// batch ($refs) that hold a live turn it did not select ($selected ids): another writer's
// turn appended since the plan. Such a session stays (and so do its other turns).
UNWIND $refs AS ref
MATCH (s:Session)
WHERE elementId(s) = ref AND s.tenant = $tenant
  AND EXISTS {
    MATCH (s)-[:HAS_TURN]->(t:Turn)
    WHERE NOT t.id IN $selected
  }
RETURN ref
