// An external impact target (a session, snapshot, mapping, validation or export named by its
// reference) is one node per (tenant, kind, ref); link_impact MERGEs on it.
CREATE CONSTRAINT impact_target_unique IF NOT EXISTS
FOR (t:ImpactTarget) REQUIRE (t.tenant, t.kind, t.ref) IS UNIQUE
