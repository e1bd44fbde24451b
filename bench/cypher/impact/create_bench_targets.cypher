// bench.impact: bulk-create external impact targets. Bench-only catalog (bench/cypher).
UNWIND $targets AS target
CREATE (:ImpactTarget {tenant: $tenant, kind: target.kind, ref: target.ref,
                       created_at: datetime($now)})
