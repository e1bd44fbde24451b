// Browser guide: what is quarantined (kept, never followed): chunks, turns and memories with
// instruction-like content, and the reasons.
CALL () {
  MATCH (c:Chunk) USING INDEX SEEK c:Chunk(tenant, quarantined, id)
  WHERE c.tenant = $tenant AND c.quarantined = true AND c.id IS NOT NULL
  RETURN 'Chunk' AS kind, c.id AS id, c.title AS title, c.quarantine_reasons AS reasons
  UNION ALL
  MATCH (t:Turn) USING INDEX SEEK t:Turn(tenant, quarantined)
  WHERE t.tenant = $tenant AND t.quarantined = true
  RETURN 'Turn' AS kind, t.id AS id, left(t.content, 80) AS title,
         t.quarantine_reasons AS reasons
  UNION ALL
  MATCH (m:Memory) USING INDEX SEEK m:Memory(tenant, status)
  WHERE m.tenant = $tenant AND m.status = 'quarantined'
  RETURN 'Memory' AS kind, m.id AS id, m.title AS title, m.quarantine_reasons AS reasons
}
RETURN kind, id, title, reasons
LIMIT 200
