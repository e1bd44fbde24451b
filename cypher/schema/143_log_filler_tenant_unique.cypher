// One LogFiller node per tenant (localdb/log_push.py): unique by tenant, so the filler's MERGE
// and DELETE find it by index and two pushes of a tenant share it.
CREATE CONSTRAINT log_filler_tenant_unique IF NOT EXISTS FOR (f:LogFiller) REQUIRE f.tenant IS UNIQUE
