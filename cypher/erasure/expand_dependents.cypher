// What goes with the nodes an erasure selected ($refs), because it copies or derives from
// their content: a chunk's questions, answers, annotations and the claims it evidences; a
// question's answers; a claim's promoted facts and a fact's claims; a fact key's facts; a
// session's turns; a decision's alternatives, attempts and review signals; a workstream's
// attempts; an attempt's outcomes; the packs that include or target any of them; the audit
// issues about them; the mentions of subjects a memory, turn, chunk or claim holds
// (erasure/list_emptied_subjects takes the names no mention is left for). One step; the
// caller repeats it until nothing new comes.
UNWIND $refs AS ref
MATCH (n) WHERE elementId(n) = ref AND n.tenant = $tenant
CALL (n) {
  MATCH (n:Chunk)-[:HAS_QUESTION|HAS_ANSWER|HAS_ANNOTATION]->(d) RETURN d
  UNION MATCH (n:Chunk)<-[:EVIDENCED_BY]-(d:Claim) RETURN d
  UNION MATCH (n:Claim)-[:PROMOTED_TO]->(d:Fact) RETURN d
  UNION MATCH (n:Question)-[:ANSWERED_BY]->(d:Answer) RETURN d
  UNION MATCH (n:Fact)<-[:PROMOTED_TO]-(d:Claim) RETURN d
  UNION MATCH (n:FactKey)<-[:OF_KEY]-(d:Fact) RETURN d
  UNION MATCH (n:Session)-[:HAS_TURN]->(d:Turn) RETURN d
  UNION MATCH (n:Decision)-[:HAS_ALTERNATIVE|HAS_ATTEMPT]->(d) RETURN d
  UNION MATCH (d:ReviewSignal) WHERE n:Decision AND d.tenant = $tenant AND d.decision_id = n.id
  RETURN d
  UNION MATCH (n:Workstream)-[:HAS_ATTEMPT]->(d:Attempt) RETURN d
  UNION MATCH (n:Attempt)-[:HAS_OUTCOME]->(d:Outcome) RETURN d
  UNION MATCH (n)<-[:INCLUDES|FOR_WORKSTREAM]-(d:Pack) RETURN d
  UNION MATCH (d:Issue) WHERE d.tenant = $tenant AND d.subject_ref = n.id RETURN d
  UNION MATCH (n)-[:HAS_MENTION]->(d:Mention) RETURN d
}
WITH DISTINCT d
WHERE NOT d:Erased
RETURN elementId(d) AS ref,
       [label IN labels(d) WHERE NOT label IN ['Unindexed', 'ImportPending', 'Unembedded', 'Unread']][0] AS kind,
       coalesce(d.id, d.sha) AS id
