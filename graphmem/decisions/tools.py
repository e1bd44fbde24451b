"""MCP tools over decisions, review signals, attempts and outcomes. Thin: validate, call the
domain, let the boundary map errors."""

from graphmem.decisions import attempts, models, review, service
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Record a decision with reopen rules", Effect.ADDS, core=True)
async def record_decision(
    services: Services, request: models.RecordDecisionRequest
) -> models.RecordDecisionResult:
    """Record a decision, the alternatives it rejected and their reopen rules
    (conditions on fact keys that make it due).

    Record the watched facts with record_fact (same project and keys): a fact write that
    breaches a rule opens a review signal; review_decisions lists what is due. One
    transaction, one history revision. Answers with id, status, revision,
    idempotent_replay and review_signals; detail=full adds the whole record.
    """
    return await service.record_decision(services.db(), request)


@SPECS.tool("List decisions due for review", Effect.READS)
async def review_decisions(
    services: Services, request: models.ReviewDecisionsRequest
) -> models.ReviewDecisionsResult:
    """List decisions due for review, paged: a reopen rule breached now (its signal, open
    or acknowledged) or review_after passed.

    Read-only, from state that fact writes and maintain keep: only candidates are evaluated,
    with their breached rules. diagnostics list the rules in scope that cannot fire now (no
    current fact, expired, incomparable, conflicting; never due), kept as state, paged by
    diagnostics_offset with totals by reason; for a decision_id, as evaluated now. maintain
    evaluates every live decision. Acknowledge with ack_review.
    """
    return await review.review_decisions(services.db(), request)


@SPECS.tool("Acknowledge a review signal", Effect.ADDS)
async def ack_review(
    services: Services, request: models.AckReviewRequest
) -> models.AckReviewResult:
    """Acknowledge an open review signal with a note: it stays quiet until the
    decision's breach set changes. One transaction, one history revision. Answers with
    signal_id, status and revision; detail=full adds the whole record.
    """
    return await service.ack_review(services.db(), request)


@SPECS.tool("Change a decision's status", Effect.CHANGES)
async def update_decision(
    services: Services, request: models.UpdateDecisionRequest
) -> models.UpdateDecisionResult:
    """Change a decision's status; to replace it in one step, record_decision with
    supersedes_decision_id instead. One transaction, one history revision. Answers with id, status,
    previous_status and revision; detail=full adds the whole record.
    """
    return await service.update_decision(services.db(), request)


@SPECS.tool("Record an attempt", Effect.ADDS)
async def record_attempt(
    services: Services, request: models.RecordAttemptRequest
) -> models.RecordAttemptResult:
    """Record something tried for a decision or a workstream (exactly one of them); it
    stays open until record_outcome. One transaction, one history revision. Answers with
    id, status and revision; detail=full adds the whole record.
    """
    return await attempts.record_attempt(services.db(), request)


@SPECS.tool("Record how an attempt ended", Effect.ADDS)
async def record_outcome(
    services: Services, request: models.RecordOutcomeRequest
) -> models.RecordOutcomeResult:
    """Record how an attempt ended, closing it; one outcome per attempt (a retry is a
    new attempt). One transaction, one history revision. Answers with id, attempt_id,
    attempt_status and revision; detail=full adds the whole record.
    """
    return await attempts.record_outcome(services.db(), request)
