// promote_candidate, single-valued predicates only: the new fact contradicts the other live
// facts of its project with the same subject and predicate and another object (at most $limit,
// by index seek), then the open contradiction count of the new fact and of each of those is
// refreshed: CONTRADICTS links not cleared whose other end is active and not lapsed.
MATCH (f:Fact {tenant: $tenant, id: $fact_id})
CALL (f) {
  MATCH (o:Fact)
  USING INDEX SEEK o:Fact(tenant, project, subject_norm, predicate)
  WHERE o.tenant = $tenant AND o.project = $project AND o.subject_norm = $subject_norm
    AND o.predicate = $predicate AND o.id <> $fact_id AND o.object_norm <> $object_norm
    AND o.status = 'active' AND coalesce(o.effective_until > datetime($now), true)
  WITH o LIMIT $limit
  CREATE (f)-[:CONTRADICTS {at: datetime($now), effective_at: datetime($now),
                            rationale: 'promotion'}]->(o)
  RETURN collect(o) AS others
}
UNWIND [f] + others AS side
SET side.contradiction_count = COUNT {
      (side)-[c:CONTRADICTS]-(x:Fact)
      WHERE c.cleared_at IS NULL AND x.status = 'active'
        AND coalesce(x.effective_until > datetime($now), true)
    },
    side.updated_at = datetime($now)
RETURN side.id AS id, side.contradiction_count AS contradiction_count
