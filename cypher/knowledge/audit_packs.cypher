// audit_memory, context packs: the next batch of current packs after the cursor (id order)
// plus the packs of open issues (a pack no longer current is not returned: its issues are
// resolved). Per pack: its summary, its INCLUDES provenance by section, what it includes that
// is no longer valid (a fact not active or lapsed, a rejected claim, a quarantined chunk or a
// question of one), the items changed more than $stale_sync_minutes after the pack was made,
// its workstream link, and a newer current pack of the same kind and target.
CALL () {
  MATCH (p:Pack)
  USING INDEX SEEK p:Pack(tenant, status, id)
  WHERE p.tenant = $tenant AND p.status = 'current' AND p.id > $after
  WITH p ORDER BY p.tenant, p.status, p.id LIMIT $limit
  RETURN p, true AS scanned
  UNION
  UNWIND $recheck AS ref
  MATCH (p:Pack)
  USING INDEX SEEK p:Pack(tenant, status, id)
  WHERE p.tenant = $tenant AND p.status = 'current' AND p.id = ref
  RETURN p, false AS scanned
}
// a subject both scanned and re-checked is one row
WITH p, true IN collect(scanned) AS scanned
WITH p, scanned, p.created_at + duration({minutes: $stale_sync_minutes}) AS sync_deadline
WITH p, scanned, {
  ref: p.id, pack_type: p.pack_type, target_ref: p.target_ref,
  items_included: p.items_included, sections_json: p.sections_json,
  sections: [(p)-[i:INCLUDES]->() | i.section],
  invalid_facts: [(p)-[:INCLUDES]->(f:Fact)
                  WHERE NOT (f.status = 'active'
                             AND coalesce(f.effective_until > datetime($now), true)) | f.id],
  rejected_claims: [(p)-[:INCLUDES]->(c:Claim) WHERE c.status = 'rejected' | c.id],
  quarantined_items: [(p)-[:INCLUDES]->(n:Chunk) WHERE n.quarantined = true | n.id]
                     + [(p)-[:INCLUDES]->(q:Question)<-[:HAS_QUESTION]-(n:Chunk)
                        WHERE n.quarantined = true | q.id],
  lagging: [(p)-[:INCLUDES]->(n)
            WHERE reduce(m = null, t IN [n.updated_at, n.answered_at, n.promoted_at] |
                    CASE WHEN t IS NOT NULL AND (m IS NULL OR t > m) THEN t ELSE m END)
                  > sync_deadline | n.id],
  linked: p.target_ref IS NULL
          OR EXISTS { (p)-[:FOR_WORKSTREAM]->(w:Workstream) WHERE w.id = p.target_ref },
  workstream_found: p.target_ref IS NOT NULL
                    AND EXISTS { MATCH (w:Workstream {tenant: $tenant, id: p.target_ref}) },
  newer: COLLECT {
    MATCH (o:Pack)
    WHERE o.tenant = $tenant AND o.pack_type = p.pack_type AND o.scope_key = p.scope_key
      AND o.status = 'current' AND o.id <> p.id
      AND (o.created_at > p.created_at OR (o.created_at = p.created_at AND o.id > p.id))
    RETURN o.id ORDER BY o.created_at DESC, o.id DESC LIMIT 1
  }
} AS pack
RETURN collect(pack) AS packs,
       count(CASE WHEN scanned THEN 1 END) AS scanned,
       max(CASE WHEN scanned THEN pack.ref END) AS last
