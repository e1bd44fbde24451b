"""Decisions: a choice with the alternatives it rejected, each carrying reopen rules that watch
fact keys; review signals when rules breach; attempts and their outcomes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, Field, JsonValue, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import (
    Audit,
    AuditedRequest,
    BoundedJson,
    Name,
    OutputModel,
    ShortText,
    StrictModel,
)
from graphmem.decisions.reopen_rules import Operator, Rule, Unit
from graphmem.toolkit.answers import compact

DecisionStatus = Literal["active", "review_required", "stale", "superseded", "reverted"]
LIVE_STATUSES: tuple[DecisionStatus, ...] = ("active", "review_required", "stale")
Verdict = Literal["true", "false", "unknown"]
UnknownReason = Literal[
    "no_current_fact", "expired_fact", "incomparable_types", "conflicting_evidence"
]
SignalStatus = Literal["open", "acknowledged", "cleared"]
OutcomeResult = Literal["succeeded", "failed", "partial", "abandoned"]

LongText = Annotated[str, Field(min_length=1, max_length=4000)]
MAX_ALTERNATIVES = 20
MAX_RULES_PER_ALTERNATIVE = 20
MAX_DEPENDENCIES = 50
MAX_EVIDENCE_REFS = 20
MAX_DUE = 10_000  # review_decisions: candidates read per call
MAX_DIAGNOSTICS = 100  # unknown verdicts listed per answer
MAX_DIAGNOSTICS_OFFSET = 1_000_000
EvidenceRefs = Annotated[
    list[ShortText], Field(max_length=MAX_EVIDENCE_REFS, description="URLs, paths or ids.")
]


# --- inputs --------------------------------------------------------------------------------------
class RuleInput(StrictModel):
    key: Name
    operator: Operator
    value: BoundedJson = Field(
        description="between [low, high]; in, not_in a list; ordered: number or ISO-8601 date."
    )
    unit: Unit | None = None

    def rule(self) -> Rule:
        return Rule(self.key, self.operator, self.value, self.unit)


class AlternativeInput(StrictModel):
    title: ShortText
    why_rejected: LongText | None = None
    reopen_when: list[RuleInput] = Field(
        default_factory=list[RuleInput], max_length=MAX_RULES_PER_ALTERNATIVE
    )


class RecordDecisionRequest(AuditedRequest):
    project: Name = Field(description="Project; rules watch its keys.")
    title: ShortText = Field(description="Short name.")
    choice: LongText = Field(description="What was decided.")
    rationale: LongText | None = Field(default=None, description="Why.")
    alternatives: list[AlternativeInput] = Field(
        default_factory=list[AlternativeInput],
        max_length=MAX_ALTERNATIVES,
        description="Rejected options; any true reopen_when rule makes it due.",
    )
    depends_on: list[Name] = Field(
        default_factory=list,
        max_length=MAX_DEPENDENCIES,
        description="Fact ids or keys it rests on.",
    )
    review_after: AwareDatetime | None = Field(
        default=None, description="When maintain marks it stale."
    )
    supersedes_decision_id: Name | None = Field(
        default=None, description="Live decision it replaces."
    )
    idempotency_key: Name | None = Field(
        default=None, description="Retries return the first decision."
    )

    @model_validator(mode="after")
    def _rules_valid(self) -> RecordDecisionRequest:
        for a, alternative in enumerate(self.alternatives):
            for r, rule in enumerate(alternative.reopen_when):
                rule.rule().validate(f"alternatives.{a}.reopen_when.{r}")
        if len(set(self.depends_on)) != len(self.depends_on):
            raise InvalidArgument("depends_on", "lists an entry twice")
        return self


class ReviewDecisionsRequest(StrictModel):
    project: Name | None = Field(default=None, description="Only this project.")
    decision_id: Name | None = Field(default=None, description="Only this decision.")
    limit: int = Field(default=50, ge=1, le=200, description="Page size.")
    offset: int = Field(default=0, ge=0, le=MAX_DUE, description="Page start.")
    diagnostics_offset: int = Field(
        default=0, ge=0, le=MAX_DIAGNOSTICS_OFFSET, description="Diagnostics page start."
    )


class AckReviewRequest(StrictModel):
    signal_id: Name = Field(description="Open signal.")
    note: LongText = Field(description="Conclusion.")
    session_id: Audit = None
    actor: Audit = None


class UpdateDecisionRequest(StrictModel):
    decision_id: Name = Field(description="Decision id.")
    status: DecisionStatus = Field(description="superseded, reverted: final.")
    successor_decision_id: Name | None = Field(default=None, description="Live successor.")
    reason: LongText | None = Field(default=None, description="Why.")
    session_id: Audit = None
    actor: Audit = None

    @model_validator(mode="after")
    def _successor(self) -> UpdateDecisionRequest:
        if self.status == "superseded" and self.successor_decision_id is None:
            raise InvalidArgument("successor_decision_id", "required when status is superseded")
        if self.status != "superseded" and self.successor_decision_id is not None:
            raise InvalidArgument("successor_decision_id", "only used when status is superseded")
        if self.successor_decision_id == self.decision_id:
            raise InvalidArgument("successor_decision_id", "must differ from decision_id")
        return self


class RecordAttemptRequest(AuditedRequest):
    decision_id: Name | None = Field(default=None, description="Decision.")
    workstream_id: Name | None = Field(default=None, description="Or workstream.")
    title: ShortText = Field(description="What was tried.")
    description: LongText | None = Field(default=None, description="How.")
    evidence: EvidenceRefs = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_subject(self) -> RecordAttemptRequest:
        if (self.decision_id is None) == (self.workstream_id is None):
            raise InvalidArgument("decision_id", "give exactly one of decision_id, workstream_id")
        return self


class RecordOutcomeRequest(AuditedRequest):
    attempt_id: Name = Field(description="Attempt id.")
    result: OutcomeResult = Field(description="How it ended.")
    summary: LongText | None = Field(default=None, description="What happened.")
    lesson: LongText | None = Field(default=None, description="What to reuse or avoid.")
    evidence: EvidenceRefs = Field(default_factory=list)


# --- outputs -------------------------------------------------------------------------------------
class Evidence(OutputModel):
    fact_id: str
    value: JsonValue
    observed_at: datetime
    valid_from: datetime
    source_class: str
    verification_status: str
    verdict: Verdict | None = Field(
        default=None, description="This fact's verdict on the rule (conflicting evidence)."
    )


class RuleVerdict(OutputModel):
    rule_id: str = Field(description="Stable: the alternative plus the rule's content.")
    alternative_id: str
    key: str
    operator: str
    value: JsonValue
    unit: str | None
    verdict: Verdict
    reason: UnknownReason | None = Field(description="Why the verdict is unknown.")
    evidence: Evidence | None = Field(description="The key's current fact, when it has one.")
    conflicting_evidence: list[Evidence] = Field(
        description="Live facts in open contradiction with the evidence, with their verdicts."
    )


class Alternative(OutputModel):
    id: str
    title: str
    why_rejected: str | None
    rules: list[RuleVerdict]


class Dependency(OutputModel):
    kind: Literal["fact", "key"]
    ref: str = Field(description="The fact id, or the key in the decision's project.")


class ReviewSignal(OutputModel):
    """A decision's breach, identified by the decision and its sorted set of breached rules."""

    signal_id: str
    decision_id: str
    breached_rule_ids: list[str]
    status: SignalStatus = Field(
        description="open; acknowledged (quiet until the breach set changes); cleared (the "
        "breach set moved on)."
    )
    opened_at: datetime
    acknowledged_at: datetime | None = None
    note: str | None = None


class Decision(OutputModel):
    id: str
    kind: Literal["decision"] = "decision"
    project: str
    title: str
    choice: str
    rationale: str | None
    status: DecisionStatus
    review_after: datetime | None
    supersedes_decision_id: str | None
    superseded_by_decision_id: str | None
    alternatives: list[Alternative]
    depends_on: list[Dependency]
    created_at: datetime
    updated_at: datetime
    session_id: str | None
    actor: str | None
    client: str | None


class RecordDecisionResult(OutputModel):
    compact_answer = compact(
        "revision",
        "idempotent_replay",
        "review_signals",
        id="decision.id",
        status="decision.status",
    )
    decision: Decision
    revision: int
    idempotent_replay: bool
    review_signals: list[ReviewSignal] = Field(
        description="Signals this decision opened at once: rules that already breach."
    )


class Diagnostic(OutputModel):
    decision_id: str
    rule_id: str
    key: str
    reason: UnknownReason
    since: datetime | None = Field(
        default=None, description="Unknown for this reason since (kept state; scope reviews)."
    )


class UnknownByReason(OutputModel):
    no_current_fact: int = 0
    expired_fact: int = 0
    incomparable_types: int = 0
    conflicting_evidence: int = 0


class VerdictCounts(OutputModel):
    true: int = 0
    false: int = 0
    unknown: int = 0


class DueDecision(OutputModel):
    decision_id: str
    project: str
    title: str
    status: DecisionStatus
    review_after_passed: bool
    signal: ReviewSignal | None = Field(description="The breach's signal; null when only stale.")
    breached_rules: list[RuleVerdict]


class ReviewVerdicts(OutputModel):
    """What an evaluation of reopen rules found."""

    evaluated_decisions: int
    evaluated_rules: int
    verdicts: VerdictCounts
    diagnostics: list[Diagnostic] = Field(
        description=f"Unknown verdicts (at most {MAX_DIAGNOSTICS} listed)."
    )
    diagnostics_total: int


class ReviewOutcome(ReviewVerdicts):
    """What maintain's evaluation of every live decision found and changed."""

    signals_opened: list[ReviewSignal]
    signals_cleared: int


class ReviewDecisionsResult(ReviewVerdicts):
    due: list[DueDecision] = Field(description="Decisions due for review, by decision id.")
    due_total: int = Field(description=f"Decisions due in scope (at most {MAX_DUE:,}).")
    limit: int
    offset: int
    next_offset: int | None
    unknown_by_reason: UnknownByReason = Field(
        description="Rules in scope that cannot fire now, by reason (exact)."
    )
    diagnostics_next_offset: int | None = Field(
        description="Pass as diagnostics_offset for the next page of diagnostics."
    )
    evaluated_at: datetime


class AckReviewResult(OutputModel):
    compact_answer = compact("revision", signal_id="signal.signal_id", status="signal.status")
    signal: ReviewSignal
    revision: int


class UpdateDecisionResult(OutputModel):
    compact_answer = compact(
        "previous_status", "revision", id="decision.id", status="decision.status"
    )
    decision: Decision
    previous_status: DecisionStatus
    revision: int


class Attempt(OutputModel):
    id: str
    kind: Literal["attempt"] = "attempt"
    decision_id: str | None
    workstream_id: str | None
    title: str
    description: str | None
    evidence: list[str]
    status: Literal["open", "ended"]
    result: OutcomeResult | None
    created_at: datetime
    session_id: str | None
    actor: str | None
    client: str | None


class Outcome(OutputModel):
    id: str
    attempt_id: str
    result: OutcomeResult
    summary: str | None
    lesson: str | None
    evidence: list[str]
    recorded_at: datetime


class RecordAttemptResult(OutputModel):
    compact_answer = compact("revision", id="attempt.id", status="attempt.status")
    attempt: Attempt
    revision: int


class RecordOutcomeResult(OutputModel):
    compact_answer = compact(
        "revision", id="outcome.id", attempt_id="attempt.id", attempt_status="attempt.status"
    )
    outcome: Outcome
    attempt: Attempt
    revision: int
