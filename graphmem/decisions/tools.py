"""MCP tools over decisions, review signals, attempts and outcomes. Thin: validate, call the
domain, let the boundary map errors."""

from typing import Annotated

from pydantic import AwareDatetime, Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import AuditText, Name
from graphmem.decisions import service as decisions
from graphmem.decisions.models import (
    MAX_ALTERNATIVES,
    MAX_DEPENDENCIES,
    MAX_EVIDENCE_REFS,
    AckReviewRequest,
    AckReviewResult,
    AlternativeInput,
    DecisionStatus,
    EvidenceRef,
    LongText,
    OutcomeResult,
    RecordAttemptRequest,
    RecordAttemptResult,
    RecordDecisionRequest,
    RecordDecisionResult,
    RecordOutcomeRequest,
    RecordOutcomeResult,
    ReviewDecisionsRequest,
    ReviewDecisionsResult,
    Title,
    UpdateDecisionRequest,
    UpdateDecisionResult,
)

Audit = Annotated[AuditText | None, Field(description="Recorded for audit; grants nothing.")]
Evidence = Annotated[
    list[EvidenceRef],
    Field(max_length=MAX_EVIDENCE_REFS, description="References (URLs, paths, ids) to evidence."),
]


def make_record_decision(services: Services) -> ToolFunction:
    async def record_decision(
        project: Annotated[Name, Field(description="Owning project; rules watch its keys.")],
        title: Annotated[Title, Field(description="Short name of the decision.")],
        choice: Annotated[LongText, Field(description="What was decided.")],
        rationale: Annotated[LongText | None, Field(description="Why.")] = None,
        alternatives: Annotated[
            list[AlternativeInput],
            Field(
                max_length=MAX_ALTERNATIVES,
                description="Rejected options, each with why_rejected and reopen_when rules "
                "{key, operator, value, unit}: operators equals, not_equals, contains, "
                "greater_than, less_than, gte, lte, between ([low, high], inclusive), in, "
                "not_in; units ms, s, min, h, d, %. Rules of one alternative are OR-ed.",
            ),
        ] = [],  # noqa: B006 - FastMCP copies defaults per call
        depends_on: Annotated[
            list[Name],
            Field(
                max_length=MAX_DEPENDENCIES,
                description="Fact ids or keys (in this project) the decision rests on. An "
                "entry shaped like an id must name an existing fact.",
            ),
        ] = [],  # noqa: B006
        review_after: Annotated[
            AwareDatetime | None,
            Field(description="After this instant maintain marks the decision stale."),
        ] = None,
        supersedes_decision_id: Annotated[
            Name | None,
            Field(description="A live decision this one replaces (it becomes superseded)."),
        ] = None,
        idempotency_key: Annotated[
            Name | None,
            Field(
                description="Retry identity within the project: a retry with the same key "
                "and arguments returns the first decision and writes nothing."
            ),
        ] = None,
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> RecordDecisionResult:
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
        request = RecordDecisionRequest(
            project=project,
            title=title,
            choice=choice,
            rationale=rationale,
            alternatives=alternatives,
            depends_on=depends_on,
            review_after=review_after,
            supersedes_decision_id=supersedes_decision_id,
            idempotency_key=idempotency_key,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await decisions.record_decision(services.store, services.tenant(), request)

    return record_decision


def make_review_decisions(services: Services) -> ToolFunction:
    async def review_decisions(
        project: Annotated[Name | None, Field(description="Only this project's decisions.")] = None,
        decision_id: Annotated[Name | None, Field(description="Only this decision.")] = None,
        limit: Annotated[int, Field(ge=1, le=200, description="Due decisions per page.")] = 50,
        offset: Annotated[int, Field(ge=0, le=100_000, description="Page start.")] = 0,
    ) -> ReviewDecisionsResult:
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
        request = ReviewDecisionsRequest(
            project=project, decision_id=decision_id, limit=limit, offset=offset
        )
        return await decisions.review_decisions(services.store, services.tenant(), request)

    return review_decisions


def make_ack_review(services: Services) -> ToolFunction:
    async def ack_review(
        signal_id: Annotated[Name, Field(description="The open review signal.")],
        note: Annotated[LongText, Field(description="What was reviewed and concluded.")],
        session_id: Audit = None,
        actor: Audit = None,
    ) -> AckReviewResult:
        """Acknowledge one open review signal with a note.

        The signal stays acknowledged (and its decision quiet) while the decision's set of
        breached rules is the same; a different set opens a new signal, and a breach that
        clears entirely ends the episode. To act on the decision itself use
        update_decision or record_decision with supersedes_decision_id. Errors: not_found,
        conflict when the signal is not open. One revision.
        """
        request = AckReviewRequest(
            signal_id=signal_id, note=note, session_id=session_id, actor=actor
        )
        return await decisions.ack_review(services.store, services.tenant(), request)

    return ack_review


def make_update_decision(services: Services) -> ToolFunction:
    async def update_decision(
        decision_id: Annotated[Name, Field(description="The decision to change.")],
        status: Annotated[
            DecisionStatus,
            Field(
                description="active, review_required and stale move freely among "
                "themselves; superseded (needs successor_decision_id) and reverted are final."
            ),
        ],
        successor_decision_id: Annotated[
            Name | None, Field(description="The live decision that replaces it.")
        ] = None,
        reason: Annotated[LongText | None, Field(description="Why; kept on the decision.")] = None,
        session_id: Audit = None,
        actor: Audit = None,
    ) -> UpdateDecisionResult:
        """Change a decision's lifecycle status, linking its successor when superseded.

        Use it after a review: back to active, review_required while someone looks, or
        final states superseded / reverted (their signals are cleared and their rules no
        longer evaluated). To replace a decision with a new one in one step, call
        record_decision with supersedes_decision_id instead. Errors: not_found, conflict
        for a final or unchanged status or a successor that is not live. One revision.
        """
        request = UpdateDecisionRequest(
            decision_id=decision_id,
            status=status,
            successor_decision_id=successor_decision_id,
            reason=reason,
            session_id=session_id,
            actor=actor,
        )
        return await decisions.update_decision(services.store, services.tenant(), request)

    return update_decision


def make_record_attempt(services: Services) -> ToolFunction:
    async def record_attempt(
        title: Annotated[Title, Field(description="What was tried.")],
        decision_id: Annotated[
            Name | None, Field(description="The decision it was tried for.")
        ] = None,
        workstream_id: Annotated[
            Name | None, Field(description="Or the workstream it was tried for.")
        ] = None,
        description: Annotated[LongText | None, Field(description="How.")] = None,
        evidence: Evidence = [],  # noqa: B006
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> RecordAttemptResult:
        """Record something tried for a decision or a workstream (exactly one of them).

        The attempt stays open until record_outcome says how it ended. Errors: not_found
        for an unknown decision or workstream. One revision.
        """
        request = RecordAttemptRequest(
            decision_id=decision_id,
            workstream_id=workstream_id,
            title=title,
            description=description,
            evidence=evidence,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await decisions.record_attempt(services.store, services.tenant(), request)

    return record_attempt


def make_record_outcome(services: Services) -> ToolFunction:
    async def record_outcome(
        attempt_id: Annotated[Name, Field(description="The attempt that ended.")],
        result: Annotated[
            OutcomeResult, Field(description="succeeded, failed, partial or abandoned.")
        ],
        summary: Annotated[LongText | None, Field(description="What happened.")] = None,
        lesson: Annotated[LongText | None, Field(description="What to reuse or avoid.")] = None,
        evidence: Evidence = [],  # noqa: B006
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> RecordOutcomeResult:
        """Record how an attempt ended, with evidence references; closes the attempt.

        One outcome per attempt: a second try is a new attempt. Errors: not_found for an
        unknown attempt, conflict when it already has an outcome. One revision.
        """
        request = RecordOutcomeRequest(
            attempt_id=attempt_id,
            result=result,
            summary=summary,
            lesson=lesson,
            evidence=evidence,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await decisions.record_outcome(services.store, services.tenant(), request)

    return record_outcome


SPECS = [
    ToolSpec(
        name="record_decision",
        title="Record a decision with reopen rules",
        toolset="core",
        writes=True,
        idempotent=False,
        destructive=False,
        legacy_make=make_record_decision,
    ),
    ToolSpec(
        name="review_decisions",
        title="Evaluate reopen rules and list decisions due",
        toolset="core",
        writes=True,
        idempotent=True,
        destructive=False,
        legacy_make=make_review_decisions,
    ),
    ToolSpec(
        name="ack_review",
        title="Acknowledge a review signal",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        legacy_make=make_ack_review,
    ),
    ToolSpec(
        name="update_decision",
        title="Change a decision's status",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,
        legacy_make=make_update_decision,
    ),
    ToolSpec(
        name="record_attempt",
        title="Record an attempt",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        legacy_make=make_record_attempt,
    ),
    ToolSpec(
        name="record_outcome",
        title="Record how an attempt ended",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        legacy_make=make_record_outcome,
    ),
]
