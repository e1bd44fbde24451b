// One claim per normalised triple in a project (extract_candidate_claims MERGEs on it): the same
// triple extracted from another chunk adds evidence to the existing claim, whatever its status.
CREATE CONSTRAINT claim_triple_unique IF NOT EXISTS
FOR (c:Claim) REQUIRE (c.tenant, c.project, c.triple_key) IS UNIQUE
