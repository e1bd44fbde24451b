"""MCP tools of the knowledge pipeline's core: assess a chunk, extract candidate claims, promote
one to a governed fact. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.knowledge import assess, claims
from graphmem.knowledge.models import pipeline as models


async def assess_context(
    services: Services, request: models.AssessContextRequest
) -> models.AssessResult:
    """Classify one context chunk: detect its signal markers, score materiality and
    uncertainty (0..1), and move its lifecycle state where the move is legal.

    Call it before extract_candidate_claims, which accepts only enrichable or uncertain
    chunks. Markers rank FREEZE_CONTEXT > NO_ENRICH > WAIT_HUMAN > ENRICH_OK; only the
    highest acts, and only through a legal transition (frozen, no_enrich, awaiting_human,
    enrichable). Without a marker a no_enrich chunk stays no_enrich under enrich_policy
    manual (the default) and becomes enrichable under auto. An enrichable target with
    uncertainty above 0.6 becomes uncertain. Quarantined chunks are scored but never
    become enrichable. A frozen chunk without force returns should_skip with skip_reason
    frozen; an awaiting_human chunk whose source is unchanged since it was queued returns
    skip_reason same_unresolved_source. Writes the scores and state, a signal/freeze
    annotation when a marker acts, a history event when the state changes, and a
    run-history entry every time (also on skips). To ask a human instead use
    queue_clarification. Errors: not_found for an unknown chunk.
    """
    return await assess.assess_context(
        services.store, services.tenant(), request, services.settings.enrich_policy
    )


async def extract_candidate_claims(
    services: Services, request: models.ExtractClaimsRequest
) -> models.ExtractResult:
    """Extract typed subject-predicate-object claims from one enrichable or uncertain chunk
    and stage them as candidate claims; nothing becomes canonical until
    promote_candidate.

    Predicates: uses, depends_on, is, requires, produces, validates, contains, replaces,
    found by deterministic whole-word rules within a clause (never across punctuation);
    negated statements, pronoun or very short terms and duplicates are dropped. The
    chunk's scope (scope_hint, else detected from keywords) is every claim's scope;
    bridge, mapping, validation and export claims require a human. The same triple from
    another chunk of the project adds that chunk as evidence of the existing claim
    (evidence_count) instead of a duplicate; extracting a chunk again adds nothing. Writes
    one claim with its EVIDENCED_BY link and a history event per new triple or new
    evidence, then a run-history entry; all-or-nothing. Errors: not_found for an unknown
    chunk; invalid_state naming the state for any other state, or "quarantined" for a
    quarantined chunk (a blocked run entry is still recorded).
    """
    return await claims.extract_candidate_claims(services.store, services.tenant(), request)


async def promote_candidate(
    services: Services, request: models.PromoteCandidateRequest
) -> models.PromoteResult:
    """Governance gate: promote one candidate claim to a canonical fact.

    Call it with human_confirmed after review; sensitive scopes (mapping, validation,
    bridge, export) accept no other mode. A refused promotion (human confirmation
    needed, insufficient evidence, low confidence, wrong scope) returns promoted false
    with a reason, not an error, and records a blocked run entry. On success the fact
    is recorded under the claim's project with key kb:<subject>|<predicate>|<object>
    (value: the object; source class human_confirmed, tool_observed for imported,
    agent_claimed otherwise) unless an identical live fact exists, which is reinforced
    instead (reused_existing_fact). For is and replaces, other live facts with the same
    subject and another object are linked as contradictions (counts refreshed);
    multi-valued predicates never contradict. Writes the claim status, the PROMOTED_TO
    link, a history event and a run-history entry. To change a fact afterwards use
    govern_fact. Errors: not_found for an unknown claim, invalid_state naming the status
    for a claim that is not a candidate (a second promote changes nothing),
    invalid_argument for an unknown mode or auto_layer1.
    """
    return await claims.promote_candidate(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=assess_context,
        title="Assess a context chunk",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=extract_candidate_claims,
        title="Extract candidate claims from a chunk",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=promote_candidate,
        title="Promote a candidate claim to a fact",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
    ),
]
