"""MCP tools of the knowledge pipeline's core: assess a chunk, extract candidate claims, promote
one to a governed fact. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.knowledge import assess, claims, promote
from graphmem.knowledge.models import pipeline as models
from graphmem.subjects.reading import read_soon
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Assess a context chunk", Effect.ADDS_ONCE)
async def assess_context(
    services: Services, request: models.AssessContextRequest
) -> models.AssessResult:
    """Classify one chunk: detect its markers, score materiality and uncertainty (0..1) and
    move its lifecycle state where the move is legal.

    Call it before extract_candidate_claims (needs enrichable or uncertain); to ask a human,
    queue_clarification. Only the highest marker acts (FREEZE_CONTEXT > NO_ENRICH >
    WAIT_HUMAN > ENRICH_OK). Unmarked, no_enrich stays so under enrich_policy manual (the
    default) and becomes enrichable under auto; uncertainty above 0.6 gives uncertain. A
    frozen chunk, or an awaiting_human one with an unchanged source, is skipped unless
    force. One transaction. Answers the state, scores, signals and any skip_reason.
    """
    return await assess.assess_context(services.db(), request, services.settings.enrich_policy)


@SPECS.tool("Extract candidate claims from a chunk", Effect.ADDS_ONCE)
async def extract_candidate_claims(
    services: Services, request: models.ExtractClaimsRequest
) -> models.ExtractResult:
    """Extract subject-predicate-object claims from one enrichable or uncertain chunk and
    stage them as candidates; nothing becomes a fact until promote_candidate.

    Every claim takes the chunk's scope (scope_hint, else detected); bridge, mapping,
    validation and export claims need a human. The same triple from another chunk adds
    evidence to the existing claim; extracting again adds nothing. One transaction. Other
    states or a quarantined chunk: invalid_state. Answers the claims (id, triple, scope,
    confidence, status, evidence_count) and counts.
    """
    db = services.db()
    result = await claims.extract_candidate_claims(db, request)
    read_soon(db, services.settings.subjects)  # the names its claims hold follow
    return result


@SPECS.tool("Promote a candidate claim to a fact", Effect.ADDS_ONCE)
async def promote_candidate(
    services: Services, request: models.PromoteCandidateRequest
) -> models.PromoteResult:
    """Promote one candidate claim (from extract_candidate_claims) to a governed fact.

    Sensitive scopes (bridge, mapping, validation, export) accept only human_confirmed. A
    refusal is no error: promoted false with a reason. Success records the fact
    kb:<subject>|<predicate>|<object> in the claim's project, or reinforces an identical
    live fact; for is and replaces, live facts with the same subject and another object
    become contradictions. One transaction, one history revision; later changes:
    govern_fact. Not a candidate: invalid_state. Answers promoted, reason, fact_id,
    contradictions and revision.
    """
    return await promote.promote_candidate(services.db(), request)
