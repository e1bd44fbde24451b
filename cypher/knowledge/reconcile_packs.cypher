// audit_memory repair of current packs, one action each: retire (kept, stamped retired_at,
// retired_by and retired_reason), or re-link to its workstream, and/or re-materialize its
// summary (items_included, sections_json) from its INCLUDES provenance.
UNWIND $actions AS action
MATCH (p:Pack)
USING INDEX SEEK p:Pack(tenant, status, id)
WHERE p.tenant = $tenant AND p.status = 'current' AND p.id = action.id
OPTIONAL MATCH (w:Workstream {tenant: $tenant, id: p.target_ref})
WITH p, action, CASE WHEN action.relink AND NOT action.retire THEN w END AS relink_to
SET p.status = CASE WHEN action.retire THEN 'retired' ELSE p.status END,
    p.retired_at = CASE WHEN action.retire THEN datetime($now) ELSE p.retired_at END,
    p.retired_by = CASE WHEN action.retire THEN action.retired_by ELSE p.retired_by END,
    p.retired_reason = CASE WHEN action.retire THEN action.reason ELSE p.retired_reason END,
    p.items_included = CASE WHEN action.retire OR action.items_included IS NULL
                            THEN p.items_included ELSE action.items_included END,
    p.sections_json = CASE WHEN action.retire OR action.sections_json IS NULL
                           THEN p.sections_json ELSE action.sections_json END
FOREACH (_ IN CASE WHEN relink_to IS NULL THEN [] ELSE [1] END |
  CREATE (p)-[:FOR_WORKSTREAM]->(relink_to)
)
RETURN p.id AS id, action.retire AS retired, relink_to IS NOT NULL AS relinked,
       NOT action.retire AND action.items_included IS NOT NULL AS materialized
