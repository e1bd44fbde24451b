"""Query rows to models: the decisions area's mappers from nodes as Cypher returns them, and
the shapes of the rows of its statements (cypher/decisions/)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from graphmem.core.models import from_node
from graphmem.decisions.models import (
    Alternative,
    Attempt,
    Decision,
    DecisionStatus,
    Dependency,
    Evidence,
    OutcomeResult,
    RuleVerdict,
    SignalStatus,
    UnknownReason,
    Verdict,
)
from graphmem.decisions.reopen_rules import Operator, Unit


# --- nodes ---------------------------------------------------------------------------------------
class DecisionNode(TypedDict):
    """A ``:Decision`` node's properties, as decisions/create_decision wrote them and later
    statements changed them (update_decision_status, link_superseded_decision,
    mark_stale_decisions, set_rule_states). Neo4j keeps no nulls: a property never set, or set
    to null, is absent."""

    tenant: str
    id: str
    project: str
    title: str
    choice: str
    rationale: NotRequired[str]
    status: DecisionStatus
    status_reason: NotRequired[str]
    review_after: NotRequired[datetime]
    created_at: datetime
    updated_at: datetime
    session_id: NotRequired[str]
    actor: NotRequired[str]
    client: NotRequired[str]
    unknown_rules: NotRequired[int]  # kept by the first evaluation in a write


class AttemptNode(TypedDict):
    """An ``:Attempt`` node's properties (decisions/create_attempt; create_outcome ends it)."""

    tenant: str
    id: str
    decision_id: NotRequired[str]  # exactly one of decision_id, workstream_id
    workstream_id: NotRequired[str]
    title: str
    description: NotRequired[str]
    evidence: list[str]
    status: Literal["open", "ended"]
    result: NotRequired[OutcomeResult]  # once ended
    created_at: datetime
    updated_at: datetime
    session_id: NotRequired[str]
    actor: NotRequired[str]
    client: NotRequired[str]


class OutcomeNode(TypedDict):
    """An ``:Outcome`` node's properties (decisions/create_outcome)."""

    tenant: str
    id: str
    attempt_id: str
    result: OutcomeResult
    summary: NotRequired[str]
    lesson: NotRequired[str]
    evidence: list[str]
    recorded_at: datetime
    session_id: NotRequired[str]
    actor: NotRequired[str]
    client: NotRequired[str]


# --- decisions/get_decisions ---------------------------------------------------------------------
class StoredRule(TypedDict):
    """A REOPEN_WHEN relationship's fields as decisions/get_decisions lists them."""

    rule_id: str
    position: int
    key: str
    operator: Operator
    operand_json: str
    unit: Unit | None


class StoredAlternative(TypedDict):
    """An alternative as decisions/get_decisions lists it, with its rules (unordered)."""

    id: str
    title: str
    why_rejected: str | None
    position: int
    rules: list[StoredRule]


class DependencyRow(TypedDict):
    kind: Literal["fact", "key"]
    ref: str  # the fact's id, or the key


class DecisionRow(TypedDict):
    """decisions/get_decisions: one decision with its links."""

    decision: DecisionNode
    supersedes_decision_id: str | None
    superseded_by_decision_id: str | None
    alternatives: list[StoredAlternative]  # in position order
    depends_on: list[DependencyRow]


# --- decisions/evaluate_reopen_rules -------------------------------------------------------------
class Check(TypedDict):
    """One fact's evidence on a rule: its value, when it was observed, and its verdict (None
    when the value and the operand cannot be compared)."""

    fact_id: str
    value_json: str
    observed_at: str  # ISO 8601, as the query returns it
    valid_from: str
    source_class: str
    verification_status: str
    verdict: bool | None


class EvaluatedRule(TypedDict):
    """One rule's verdict now: true, false, or None with the reason it is unknown."""

    decision_id: str
    alternative_id: str
    rule_id: str
    key: str
    operator: Operator
    operand_json: str
    unit: Unit | None
    verdict: bool | None
    reason: UnknownReason | None
    stored_reason: UnknownReason | None  # as the last evaluation in a write kept it
    evidence: Check | None  # with $details, or when the rule breaches
    conflicting: list[Check]


class EvaluatedDecision(TypedDict):
    """One decision's fields and its rules' verdicts, in (alternative, rule) order."""

    decision_id: str
    project: str
    title: str
    status: DecisionStatus
    review_after: str | None  # ISO 8601
    rules: list[EvaluatedRule]
    stored_unknown: int | None  # None before the first evaluation in a write
    has_signal: bool  # an open or acknowledged review signal exists


class EvaluationRow(TypedDict):
    """decisions/evaluate_reopen_rules: one row, the decisions evaluated."""

    decisions: list[EvaluatedDecision]


# --- decisions listed for evaluation -------------------------------------------------------------
class ListedDecision(TypedDict):
    """decisions/list_live_decisions and list_due_candidates: a live decision's own fields."""

    id: str
    project: str
    title: str
    status: DecisionStatus
    review_after: str | None  # ISO 8601


class IdRow(TypedDict):
    """decisions/list_existing_facts (a fact's id), list_decisions_watching_facts and
    mark_stale_decisions (a decision's)."""

    id: str


class SubjectsRow(TypedDict):
    """decisions/list_watched_subjects and list_changed_subjects: the keys' subject parts."""

    subjects: list[str]


class StatusRow(TypedDict):
    """decisions/get_attempt and get_review_signal: the record's status."""

    status: Literal["open", "ended"] | SignalStatus


# --- review signals ------------------------------------------------------------------------------
class SignalRow(TypedDict):
    """A ``:ReviewSignal`` as the statements project it (the fields of ReviewSignal)."""

    signal_id: str
    decision_id: str
    breached_rule_ids: list[str]
    status: SignalStatus
    opened_at: datetime
    acknowledged_at: datetime | None
    note: str | None


class CoveredSignalRow(SignalRow):
    coverage: str  # the breached rule ids, sorted, joined by a space


class AcknowledgedRow(TypedDict):
    """decisions/acknowledge_review_signal."""

    signal: SignalRow


class CurrentSignalRow(TypedDict):
    """decisions/list_current_signals: an open or acknowledged signal and its breach set."""

    signal: CoveredSignalRow


class SyncedRow(TypedDict):
    """decisions/sync_review_signals: a decision whose signals changed or exist now."""

    decision_id: str
    cleared: int  # its signals of other breach sets cleared
    signal: SignalRow | None  # the signal of its breach set now; None when nothing breaches
    opening: bool | None  # the signal was opened now (None without a signal)


# --- decisions/list_unknown_rules ----------------------------------------------------------------
class KeptDiagnostic(TypedDict):
    """A rule that cannot fire, as the evaluations in writes kept it."""

    decision_id: str
    rule_id: str
    key: str
    reason: UnknownReason
    since: str | None  # ISO 8601


class ReasonCount(TypedDict):
    reason: UnknownReason
    rules: int


class UnknownRulesRow(TypedDict):
    """decisions/list_unknown_rules: the total, the count per reason and one page."""

    total: int
    by_reason: list[ReasonCount]
    page: list[KeptDiagnostic]


# --- attempts ------------------------------------------------------------------------------------
class AttemptRow(TypedDict):
    """decisions/create_attempt."""

    attempt: AttemptNode


class OutcomeRow(TypedDict):
    """decisions/create_outcome: the ended attempt and its outcome."""

    attempt: AttemptNode
    outcome: OutcomeNode


# --- mappers -------------------------------------------------------------------------------------
def verdict_of(row: EvaluatedRule) -> Verdict:
    if row["reason"] is not None:
        return "unknown"
    return "true" if row["verdict"] else "false"


def _evidence(check: Check | None, with_verdict: bool = False) -> Evidence | None:
    if check is None:
        return None
    verdict = check["verdict"]
    return from_node(
        Evidence,
        check,
        value=json.loads(check["value_json"]),
        verdict=(None if verdict is None else str(verdict).lower()) if with_verdict else None,
    )


def rule_verdict(row: EvaluatedRule) -> RuleVerdict:
    return from_node(
        RuleVerdict,
        row,
        value=json.loads(row["operand_json"]),
        verdict=verdict_of(row),
        evidence=_evidence(row["evidence"]),
        conflicting_evidence=[
            e for e in (_evidence(c, with_verdict=True) for c in row["conflicting"]) if e
        ],
    )


def decision_from_row(row: DecisionRow, verdicts: dict[str, RuleVerdict]) -> Decision:
    alternatives = [
        from_node(
            Alternative,
            alternative,
            rules=[
                verdicts[rule["rule_id"]]
                for rule in sorted(alternative["rules"], key=lambda r: r["position"])
            ],
        )
        for alternative in row["alternatives"]
    ]
    return from_node(
        Decision,
        row["decision"],
        supersedes_decision_id=row["supersedes_decision_id"],
        superseded_by_decision_id=row["superseded_by_decision_id"],
        alternatives=alternatives,
        depends_on=[Dependency(**dependency) for dependency in row["depends_on"]],
    )


def attempt_from_node(node: AttemptNode) -> Attempt:
    return from_node(Attempt, node)
