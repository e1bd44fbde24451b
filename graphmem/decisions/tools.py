"""MCP tools over decisions, review signals, attempts and outcomes. Thin: validate, call the
domain, let the boundary map errors."""

from graphmem.app.answers import compact
from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.decisions import models, service


async def record_decision(
    services: Services, request: models.RecordDecisionRequest
) -> models.RecordDecisionResult:
    """Record a decision with the alternatives it rejected and the conditions under which
    each should be reconsidered (reopen rules on fact keys).

    Use it when a choice depends on facts that can change; record those facts with
    record_fact under the same project and keys. The result carries the current
    verdict of every rule (true, false or unknown with its reason) and any review
    signal opened at once. From then on every fact write that breaches a rule pushes
    a signal; review_decisions lists what is due. One transaction, one revision.
    Errors: invalid_argument for a malformed rule (operand and unit are checked
    against the operator), not_found for an unknown superseded decision or fact id,
    conflict for a superseded decision that is no longer live or a reused
    idempotency_key.
    """
    return await service.record_decision(services.store, services.tenant(), request)


async def review_decisions(
    services: Services, request: models.ReviewDecisionsRequest
) -> models.ReviewDecisionsResult:
    """Evaluate the reopen rules of every live decision in scope and list the decisions
    due for review.

    Each rule is true, false or unknown (no_current_fact, expired_fact,
    incomparable_types, conflicting_evidence); unknown never makes a decision due but
    is listed in diagnostics. A decision is due when a rule breaches (its review
    signal, identified by the decision and the sorted set of breached rules, is open
    or acknowledged) or when review_after has passed. Acknowledge a signal with
    ack_review; it stays quiet until the breach set changes. Persists signal changes
    (one revision when any), so it needs write access; repeating it changes nothing.
    """
    return await service.review_decisions(services.store, services.tenant(), request)


async def ack_review(
    services: Services, request: models.AckReviewRequest
) -> models.AckReviewResult:
    """Acknowledge one open review signal with a note.

    The signal stays acknowledged (and its decision quiet) while the decision's set of
    breached rules is the same; a different set opens a new signal, and a breach that
    clears entirely ends the episode. To act on the decision itself use
    update_decision or record_decision with supersedes_decision_id. Errors: not_found,
    conflict when the signal is not open. One revision.
    """
    return await service.ack_review(services.store, services.tenant(), request)


async def update_decision(
    services: Services, request: models.UpdateDecisionRequest
) -> models.UpdateDecisionResult:
    """Change a decision's lifecycle status, linking its successor when superseded.

    Use it after a review: back to active, review_required while someone looks, or
    final states superseded / reverted (their signals are cleared and their rules no
    longer evaluated). To replace a decision with a new one in one step, call
    record_decision with supersedes_decision_id instead. Errors: not_found, conflict
    for a final or unchanged status or a successor that is not live. One revision.
    """
    return await service.update_decision(services.store, services.tenant(), request)


async def record_attempt(
    services: Services, request: models.RecordAttemptRequest
) -> models.RecordAttemptResult:
    """Record something tried for a decision or a workstream (exactly one of them).

    The attempt stays open until record_outcome says how it ended. Errors: not_found
    for an unknown decision or workstream. One revision.
    """
    return await service.record_attempt(services.store, services.tenant(), request)


async def record_outcome(
    services: Services, request: models.RecordOutcomeRequest
) -> models.RecordOutcomeResult:
    """Record how an attempt ended, with evidence references; closes the attempt.

    One outcome per attempt: a second try is a new attempt. Errors: not_found for an
    unknown attempt, conflict when it already has an outcome. One revision.
    """
    return await service.record_outcome(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=record_decision,
        title="Record a decision with reopen rules",
        toolset="core",
        writes=True,
        idempotent=False,
        destructive=False,
        answer=compact(
            "revision",
            "idempotent_replay",
            "review_signals",
            id="decision.id",
            status="decision.status",
        ),
    ),
    ToolSpec(
        handler=review_decisions,
        title="Evaluate reopen rules and list decisions due",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=ack_review,
        title="Acknowledge a review signal",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        answer=compact("revision", signal_id="signal.signal_id", status="signal.status"),
    ),
    ToolSpec(
        handler=update_decision,
        title="Change a decision's status",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,
        answer=compact("previous_status", "revision", id="decision.id", status="decision.status"),
    ),
    ToolSpec(
        handler=record_attempt,
        title="Record an attempt",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        answer=compact("revision", id="attempt.id", status="attempt.status"),
    ),
    ToolSpec(
        handler=record_outcome,
        title="Record how an attempt ended",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        answer=compact(
            "revision", id="outcome.id", attempt_id="attempt.id", attempt_status="attempt.status"
        ),
    ),
]
