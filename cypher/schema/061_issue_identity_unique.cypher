// One audit issue per (tenant, issue_type, subject_kind, subject_ref): audit_memory MERGEs on
// it, re-opening a resolved issue found again instead of duplicating it.
CREATE CONSTRAINT issue_identity_unique IF NOT EXISTS
FOR (i:Issue) REQUIRE (i.tenant, i.issue_type, i.subject_kind, i.subject_ref) IS UNIQUE
