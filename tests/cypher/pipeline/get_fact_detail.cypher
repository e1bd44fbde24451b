// Test helper: a fact's triple properties and its contradiction links.
MATCH (f:Fact {tenant: $tenant, id: $id})
RETURN f {.id, .key, .value_json, .source_class, .confidence, .status, .contradiction_count,
          .subject, .predicate, .object, .subject_norm, .object_norm, .scope,
          .validation_mode, .claim_id} AS fact,
       [(f)-[c:CONTRADICTS]-(o:Fact) | {other: o.id, rationale: c.rationale,
                                        outgoing: startNode(c) = f}] AS contradicts
