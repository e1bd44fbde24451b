// Each tenant's events form one gap-free sequence of revisions.
CREATE CONSTRAINT event_revision_unique IF NOT EXISTS
FOR (e:Event) REQUIRE (e.tenant, e.revision) IS UNIQUE
