// The caller's tenant in numbers: its nodes per label, and per project for the labels whose
// nodes carry one (project null otherwise). Each count seeks an index that starts with the
// tenant (equality, then every further property IS NOT NULL, as a composite seek needs), so it
// reads the tenant's own entries only (every label has one: schema 131-135 gave FactState,
// Outcome, Annotation, Answer and AuditState theirs). One row per (label, project).
CALL () {
  MATCH (n:FactKey) USING INDEX n:FactKey(tenant, owner, key)
  WHERE n.tenant = $tenant AND n.owner IS NOT NULL AND n.key IS NOT NULL
  RETURN 'FactKey' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Fact) USING INDEX n:Fact(tenant, slot_id, recorded_at)
  WHERE n.tenant = $tenant AND n.slot_id IS NOT NULL AND n.recorded_at IS NOT NULL
  RETURN 'Fact' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:FactState) USING INDEX n:FactState(tenant)
  WHERE n.tenant = $tenant
  RETURN 'FactState' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Decision) USING INDEX n:Decision(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Decision' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Alternative) USING INDEX n:Alternative(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Alternative' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:ReviewSignal) USING INDEX n:ReviewSignal(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'ReviewSignal' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Attempt) USING INDEX n:Attempt(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Attempt' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Outcome) USING INDEX n:Outcome(tenant)
  WHERE n.tenant = $tenant
  RETURN 'Outcome' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:ImpactTarget) USING INDEX n:ImpactTarget(tenant, kind, ref)
  WHERE n.tenant = $tenant AND n.kind IS NOT NULL AND n.ref IS NOT NULL
  RETURN 'ImpactTarget' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Chunk) USING INDEX n:Chunk(tenant, project, body_hash)
  WHERE n.tenant = $tenant AND n.project IS NOT NULL AND n.body_hash IS NOT NULL
  RETURN 'Chunk' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Annotation) USING INDEX n:Annotation(tenant)
  WHERE n.tenant = $tenant
  RETURN 'Annotation' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Answer) USING INDEX n:Answer(tenant)
  WHERE n.tenant = $tenant
  RETURN 'Answer' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Claim) USING INDEX n:Claim(tenant, project, triple_key)
  WHERE n.tenant = $tenant AND n.project IS NOT NULL AND n.triple_key IS NOT NULL
  RETURN 'Claim' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Question) USING INDEX n:Question(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Question' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Pack) USING INDEX n:Pack(tenant, status, id)
  WHERE n.tenant = $tenant AND n.status IS NOT NULL AND n.id IS NOT NULL
  RETURN 'Pack' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Issue) USING INDEX n:Issue(tenant, issue_type, subject_kind, subject_ref)
  WHERE n.tenant = $tenant AND n.issue_type IS NOT NULL AND n.subject_kind IS NOT NULL
    AND n.subject_ref IS NOT NULL
  RETURN 'Issue' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Run) USING INDEX n:Run(tenant, at)
  WHERE n.tenant = $tenant AND n.at IS NOT NULL
  RETURN 'Run' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Workstream) USING INDEX n:Workstream(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Workstream' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Commit) USING INDEX n:Commit(tenant, project, sha)
  WHERE n.tenant = $tenant AND n.project IS NOT NULL AND n.sha IS NOT NULL
  RETURN 'Commit' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Session) USING INDEX n:Session(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Session' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Turn) USING INDEX n:Turn(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Turn' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:Memory) USING INDEX n:Memory(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Memory' AS label, n.project AS project, count(*) AS count
  UNION ALL
  MATCH (n:IdempotencyRecord) USING INDEX n:IdempotencyRecord(tenant, scope, key)
  WHERE n.tenant = $tenant AND n.scope IS NOT NULL AND n.key IS NOT NULL
  RETURN 'IdempotencyRecord' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:History {tenant: $tenant})
  RETURN 'History' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:AuditState) USING INDEX n:AuditState(tenant)
  WHERE n.tenant = $tenant
  RETURN 'AuditState' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Event) USING INDEX n:Event(tenant, revision)
  WHERE n.tenant = $tenant AND n.revision IS NOT NULL
  RETURN 'Event' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:EventSubject) USING INDEX n:EventSubject(tenant, subject_id, revision)
  WHERE n.tenant = $tenant AND n.subject_id IS NOT NULL AND n.revision IS NOT NULL
  RETURN 'EventSubject' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Erased) USING INDEX n:Erased(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Erased' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Subject) USING INDEX n:Subject(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Subject' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Alias) USING INDEX n:Alias(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'Alias' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:SubjectKey) USING INDEX n:SubjectKey(tenant, key)
  WHERE n.tenant = $tenant AND n.key IS NOT NULL
  RETURN 'SubjectKey' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:Mention) USING INDEX n:Mention(tenant, subject_id, source)
  WHERE n.tenant = $tenant AND n.subject_id IS NOT NULL AND n.source IS NOT NULL
  RETURN 'Mention' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:SubjectQuestion) USING INDEX n:SubjectQuestion(tenant, id)
  WHERE n.tenant = $tenant AND n.id IS NOT NULL
  RETURN 'SubjectQuestion' AS label, null AS project, count(*) AS count
  UNION ALL
  MATCH (n:SubjectLedger) USING INDEX n:SubjectLedger(tenant)
  WHERE n.tenant = $tenant
  RETURN 'SubjectLedger' AS label, null AS project, count(*) AS count
}
RETURN label, project, count
