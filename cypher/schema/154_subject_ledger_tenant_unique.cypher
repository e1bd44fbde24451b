// The node a subjects pass locks first, so two passes of one tenant (in any processes) resolve
// one after the other and never make one subject twice.
CREATE CONSTRAINT subject_ledger_tenant_unique IF NOT EXISTS
FOR (l:SubjectLedger) REQUIRE l.tenant IS UNIQUE
