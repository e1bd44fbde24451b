"""Decisions domain: record decisions whose rejected alternatives carry reopen rules, evaluate
the rules against the facts they watch, and keep review signals in step with the breaches.

Evaluation is one Cypher traversal per call (decisions/evaluate_reopen_rules); this module
groups its rows per decision. A decision's breach set is the sorted set of its rules whose
verdict is true (rules of one alternative are OR-ed, and any alternative's breach makes the
decision due). A review signal is identified by (decision, breach set): acknowledging it
keeps it quiet until the set changes; a set that clears entirely ends the episode.

Signals are pushed: record_fact and govern_fact call ``push_signals`` in their own
transaction for the decisions that watch the keys they changed.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.core.clock import iso, parse_iso, utc_now_iso
from graphmem.core.errors import Conflict, NotFound, first_row
from graphmem.core.ids import new_id
from graphmem.core.models import from_node, owner_of, pick
from graphmem.decisions.models import (
    AckReviewRequest,
    AckReviewResult,
    Decision,
    Diagnostic,
    Outcome,
    RecordAttemptRequest,
    RecordAttemptResult,
    RecordDecisionRequest,
    RecordDecisionResult,
    RecordOutcomeRequest,
    RecordOutcomeResult,
    ReviewOutcome,
    ReviewSignal,
    UpdateDecisionRequest,
    UpdateDecisionResult,
    VerdictCounts,
)
from graphmem.decisions.rows import attempt_from_node, decision_from_row, rule_verdict, verdict_of
from graphmem.history.chain import Audit
from graphmem.history.write_path import Idempotency, IdempotencyRecord, Write, write
from graphmem.store import TenantStore

MAX_DIAGNOSTICS = 100
STALE_BATCH = 1000
TERMINAL = ("superseded", "reverted")
_ID_SHAPE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


# --- evaluation ----------------------------------------------------------------------------------
@dataclass
class _DecisionVerdicts:
    decision_id: str
    project: str
    title: str
    status: str
    review_after: str | None  # ISO 8601, as the evaluation query returns it
    rows: list[dict[str, Any]] = field(default_factory=list)
    has_signal: bool = False  # an open or acknowledged signal exists

    def review_after_passed(self, now: datetime) -> bool:
        return self.review_after is not None and parse_iso(self.review_after) <= now

    def breached(self) -> list[dict[str, Any]]:
        return [row for row in self.rows if row["reason"] is None and row["verdict"] is True]

    def coverage(self) -> list[str]:
        return sorted({row["rule_id"] for row in self.breached()})


@dataclass
class Evaluation:
    """The verdicts of one evaluation and what it did to the review signals."""

    decisions: dict[str, _DecisionVerdicts]
    signals: dict[str, ReviewSignal]  # the current signal of each breaching decision
    opened: list[ReviewSignal]
    cleared: int

    def rows(self) -> list[dict[str, Any]]:
        return [row for verdicts in self.decisions.values() for row in verdicts.rows]

    def outcome(self) -> ReviewOutcome:
        rows = self.rows()
        verdicts = [verdict_of(row) for row in rows]
        counts = VerdictCounts(
            true=verdicts.count("true"),
            false=verdicts.count("false"),
            unknown=verdicts.count("unknown"),
        )
        unknown = [row for row in rows if row["reason"] is not None]
        return ReviewOutcome(
            evaluated_decisions=len(self.decisions),
            evaluated_rules=len(rows),
            verdicts=counts,
            diagnostics=[from_node(Diagnostic, row) for row in unknown[:MAX_DIAGNOSTICS]],
            diagnostics_total=len(unknown),
            signals_opened=self.opened,
            signals_cleared=self.cleared,
        )


async def evaluate(w: Write, decision_ids: list[str], *, details: bool = False) -> Evaluation:
    """Evaluate the decisions' rules at the transaction's time and sync their signals.

    With ``details`` every rule carries its evidence; otherwise only breached rules do.
    """
    decisions: dict[str, _DecisionVerdicts] = {}
    if decision_ids:
        rows = await w.run(
            "decisions/evaluate_reopen_rules", decision_ids=decision_ids, details=details
        )
        decisions = verdicts_of(rows[0]["decisions"])
    coverages = {decision_id: _coverage(v) for decision_id, v in decisions.items()}
    entries = [
        {
            "decision_id": decision_id,
            "coverage": " ".join(coverage),
            "breached_rule_ids": coverage,
            "signal_id": new_id(),
        }
        for decision_id, coverage in coverages.items()
        if coverage or decisions[decision_id].has_signal  # nothing to sync for quiet ones
    ]
    return await _sync_signals(w, entries, decisions)


def verdicts_of(found: list[dict[str, Any]]) -> dict[str, _DecisionVerdicts]:
    """Per decision, the rows of decisions/evaluate_reopen_rules (or a decision's own fields,
    for one without rules)."""
    return {
        row["decision_id"]: _DecisionVerdicts(
            row["decision_id"],
            row["project"],
            row["title"],
            row["status"],
            row["review_after"],
            row.get("rules", []),
            row.get("has_signal", False),
        )
        for row in found
    }


def _coverage(verdicts: _DecisionVerdicts) -> list[str]:
    """The breach set that identifies a signal; none for a decision that is no longer live."""
    if verdicts.status in TERMINAL:
        return []
    return verdicts.coverage()


async def _sync_signals(
    w: Write, entries: list[dict[str, Any]], decisions: dict[str, _DecisionVerdicts]
) -> Evaluation:
    signals: dict[str, ReviewSignal] = {}
    opened: list[ReviewSignal] = []
    cleared = 0
    if entries:
        rows = await w.run("decisions/sync_review_signals", entries=entries)
        for row in rows:
            cleared += row["cleared"]
            if row["signal"] is None:
                continue
            signal = ReviewSignal(**row["signal"])
            signals[row["decision_id"]] = signal
            if row["opening"]:
                opened.append(signal)
    return Evaluation(decisions, signals, opened, cleared)


async def evaluate_listed(w: Write, listed: list[dict[str, Any]]) -> Evaluation:
    """Evaluate listed decisions (from decisions/list_live_decisions); those without
    rules are counted too (they can still be due by review_after)."""
    evaluation = await evaluate(w, [row["id"] for row in listed])
    for decision_id, verdicts in verdicts_of(
        [{**r, "decision_id": r["id"]} for r in listed]
    ).items():
        evaluation.decisions.setdefault(decision_id, verdicts)
    return evaluation


async def push_signals(w: Write, fact_ids: list[str]) -> Evaluation:
    """Re-evaluate the decisions watching the keys of these facts (called by fact writes)."""
    rows = await w.run("decisions/list_decisions_watching_facts", fact_ids=fact_ids)
    return await evaluate(w, [row["id"] for row in rows])


def signal_change(evaluation: Evaluation) -> dict[str, Any]:
    """What an evaluation changed, for the history event of the write that ran it."""
    return {
        "signals_opened": [signal.signal_id for signal in evaluation.opened],
        "signals_cleared": evaluation.cleared,
    }


# --- reading decisions ---------------------------------------------------------------------------
async def load_decisions(w: Write, ids: list[str]) -> tuple[dict[str, Decision], Evaluation]:
    """Decisions with the current verdict of every rule (evaluated, signals synced)."""
    rows = await w.run("decisions/get_decisions", ids=ids)
    evaluation = await evaluate(w, [row["decision"]["id"] for row in rows], details=True)
    verdicts = {row["rule_id"]: rule_verdict(row) for row in evaluation.rows()}
    return {row["decision"]["id"]: decision_from_row(row, verdicts) for row in rows}, evaluation


async def read_decision(db: TenantStore, decision_id: str) -> Decision:
    """A decision with its rules' verdicts now, as a pure read: signals are not synced (that
    is review_decisions' job)."""
    rows, evaluated = await asyncio.gather(  # two independent reads, one round trip's wait
        db.read("decisions/get_decisions", ids=[decision_id]),
        db.read(
            "decisions/evaluate_reopen_rules",
            decision_ids=[decision_id],
            details=True,
            now=utc_now_iso(),
        ),
    )
    row = first_row(rows, "decision", decision_id)
    verdicts = {
        rule["rule_id"]: rule_verdict(rule)
        for found in evaluated[0]["decisions"]
        for rule in found["rules"]
    }
    return decision_from_row(row, verdicts)


async def _require_decision(w: Write, decision_id: str) -> dict[str, Any]:
    rows = await w.run("decisions/get_decisions", ids=[decision_id])
    return first_row(rows, "decision", decision_id)["decision"]


# --- record_decision -----------------------------------------------------------------------------
async def record_decision(db: TenantStore, request: RecordDecisionRequest) -> RecordDecisionResult:
    decision_id = new_id()

    async def work(w: Write) -> RecordDecisionResult:
        if request.supersedes_decision_id is not None:
            older = await _require_decision(w, request.supersedes_decision_id)
            if older["status"] in TERMINAL:
                raise Conflict(
                    f"decision {older['id']!r} is {older['status']}; only a live decision "
                    "can be superseded"
                )
        await _create(w, decision_id, request)
        loaded, evaluation = await load_decisions(w, [decision_id])
        decision = loaded[decision_id]
        revision = await w.record(
            "decision",
            decision_id,
            [decision_id, *filter(None, [request.supersedes_decision_id])],
            {
                "project": request.project,
                "title": request.title,
                "choice": request.choice,
                "rules": sum(len(a.rules) for a in decision.alternatives),
                "supersedes_decision_id": request.supersedes_decision_id,
                **signal_change(evaluation),
            },
        )
        return RecordDecisionResult(
            decision=decision,
            revision=revision,
            idempotent_replay=False,
            review_signals=evaluation.opened,
        )

    keyed = Idempotency.of(
        owner_of(request.project, None),
        request,
        lambda result: IdempotencyRecord(result.decision.id, result.revision),
        _replayed_decision,
    )
    return await write(db, "record_decision", work, audit=Audit.of(request), idempotency=keyed)


async def _create(w: Write, decision_id: str, request: RecordDecisionRequest) -> None:
    now = w.now_iso
    owner = owner_of(request.project, None)
    await w.run(
        "decisions/create_decision",
        id=decision_id,
        **pick(request, "project title choice rationale"),
        review_after=iso(request.review_after),
        now=now,
    )
    alternatives, rules = _alternatives_and_rules(request)
    if alternatives:
        await w.run(
            "decisions/create_alternatives", decision_id=decision_id, alternatives=alternatives
        )
    if rules:
        await w.run(
            "decisions/link_reopen_rules",
            decision_id=decision_id,
            rules=rules,
            owner=owner,
            project=request.project,
            now=now,
        )
    if request.depends_on:
        fact_ids, keys = await _dependencies(w, request.depends_on)
        await w.run(
            "decisions/link_dependencies",
            decision_id=decision_id,
            fact_ids=fact_ids,
            keys=[{"key": key, "key_id": new_id()} for key in keys],
            owner=owner,
            project=request.project,
            now=now,
        )
    if request.supersedes_decision_id is not None:
        await w.run(
            "decisions/link_superseded_decision",
            newer_id=decision_id,
            older_id=request.supersedes_decision_id,
            reason=f"superseded by decision {decision_id}",
            now=now,
        )
        await evaluate(w, [request.supersedes_decision_id])  # clears its signals


def _alternatives_and_rules(
    request: RecordDecisionRequest,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    alternatives: list[dict[str, Any]] = []
    rules: dict[str, dict[str, Any]] = {}  # by rule id: a repeated rule is one rule
    for position, alternative in enumerate(request.alternatives):
        alternative_id = new_id()
        alternatives.append(
            {
                "id": alternative_id,
                "title": alternative.title,
                "why_rejected": alternative.why_rejected,
                "position": position,
            }
        )
        for rule_position, rule_input in enumerate(alternative.reopen_when):
            rule = rule_input.rule()
            rule_id = rule.rule_id(alternative_id)
            rules.setdefault(
                rule_id,
                {
                    **rule.projection(),
                    "rule_id": rule_id,
                    "alternative_id": alternative_id,
                    "position": rule_position,
                    "key_id": new_id(),
                },
            )
    return alternatives, list(rules.values())


async def _dependencies(w: Write, refs: list[str]) -> tuple[list[str], list[str]]:
    """Split depends_on into fact ids of the tenant and keys. A reference shaped like a
    graphmem id must name a fact: a mistyped id is refused rather than read as a key."""
    rows = await w.run("decisions/list_existing_facts", refs=refs)
    fact_ids = [row["id"] for row in rows]
    keys = [ref for ref in refs if ref not in fact_ids]
    for ref in keys:
        if _ID_SHAPE.match(ref):
            raise NotFound("fact", ref)
    return fact_ids, keys


async def _replayed_decision(w: Write, earlier: IdempotencyRecord) -> RecordDecisionResult:
    """The first write's result, with the decision as it is stored now."""
    loaded, _ = await load_decisions(w, [earlier.entity_id])
    return RecordDecisionResult(
        decision=loaded[earlier.entity_id],
        revision=earlier.revision,
        idempotent_replay=True,
        review_signals=[],
    )


# --- ack_review ----------------------------------------------------------------------------------
async def ack_review(db: TenantStore, request: AckReviewRequest) -> AckReviewResult:
    async def work(w: Write) -> AckReviewResult:
        rows = await w.run("decisions/get_review_signal", id=request.signal_id)
        status = first_row(rows, "review signal", request.signal_id)["signal"]["status"]
        if status != "open":
            raise Conflict(
                f"review signal {request.signal_id!r} is {status}; only an open signal can be "
                "acknowledged"
            )
        updated = await w.run(
            "decisions/acknowledge_review_signal",
            id=request.signal_id,
            note=request.note,
            actor=request.actor,
        )
        signal = ReviewSignal(**updated[0]["signal"])
        revision = await w.record(
            "decision",
            signal.decision_id,
            [signal.decision_id, signal.signal_id],
            {"signal_id": signal.signal_id, "note": request.note},
        )
        return AckReviewResult(signal=signal, revision=revision)

    return await write(db, "ack_review", work, audit=Audit.of(request))


# --- update_decision -----------------------------------------------------------------------------
async def update_decision(db: TenantStore, request: UpdateDecisionRequest) -> UpdateDecisionResult:
    """Lifecycle: active, review_required and stale move freely among themselves; superseded
    (with its successor linked) and reverted are final."""

    async def work(w: Write) -> UpdateDecisionResult:
        node = await _require_decision(w, request.decision_id)
        previous = node["status"]
        if previous in TERMINAL:
            raise Conflict(f"decision {request.decision_id!r} is {previous}, which is final")
        if previous == request.status:
            raise Conflict(f"decision {request.decision_id!r} is already {previous}")
        if request.successor_decision_id is not None:
            successor = await _require_decision(w, request.successor_decision_id)
            if successor["status"] in TERMINAL:
                raise Conflict(f"successor decision {successor['id']!r} is {successor['status']}")
        await w.run(
            "decisions/update_decision_status",
            id=request.decision_id,
            successor_id=request.successor_decision_id,
            status=request.status,
            reason=request.reason,
            now=w.now_iso,
        )
        loaded, evaluation = await load_decisions(w, [request.decision_id])
        revision = await w.record(
            "decision",
            request.decision_id,
            [request.decision_id, *filter(None, [request.successor_decision_id])],
            {
                "from": previous,
                "to": request.status,
                "successor_decision_id": request.successor_decision_id,
                "reason": request.reason,
                **signal_change(evaluation),
            },
        )
        return UpdateDecisionResult(
            decision=loaded[request.decision_id], previous_status=previous, revision=revision
        )

    return await write(db, "update_decision", work, audit=Audit.of(request))


# --- attempts and outcomes -----------------------------------------------------------------------


async def record_attempt(db: TenantStore, request: RecordAttemptRequest) -> RecordAttemptResult:
    attempt_id = new_id()

    async def work(w: Write) -> RecordAttemptResult:
        rows = await w.run(
            "decisions/create_attempt",
            id=attempt_id,
            **pick(request, "decision_id workstream_id title description evidence"),
        )
        if not rows:
            if request.decision_id is not None:
                raise NotFound("decision", request.decision_id)
            raise NotFound("workstream", request.workstream_id or "")
        subject = request.decision_id or request.workstream_id or ""
        revision = await w.record(
            "attempt",
            attempt_id,
            [attempt_id, subject],
            {"title": request.title, "subject_id": subject},
        )
        return RecordAttemptResult(attempt=attempt_from_node(rows[0]["attempt"]), revision=revision)

    return await write(db, "record_attempt", work, audit=Audit.of(request))


async def record_outcome(db: TenantStore, request: RecordOutcomeRequest) -> RecordOutcomeResult:
    outcome_id = new_id()

    async def work(w: Write) -> RecordOutcomeResult:
        rows = await w.run("decisions/get_attempt", id=request.attempt_id)
        if first_row(rows, "attempt", request.attempt_id)["attempt"]["status"] != "open":
            raise Conflict(
                f"attempt {request.attempt_id!r} already has an outcome; record a new "
                "attempt for a new try"
            )
        created = await w.run(
            "decisions/create_outcome",
            id=outcome_id,
            **pick(request, "attempt_id result summary lesson evidence"),
        )
        revision = await w.record(
            "attempt",
            request.attempt_id,
            [request.attempt_id, outcome_id],
            {"result": request.result},
        )
        return RecordOutcomeResult(
            outcome=from_node(Outcome, created[0]["outcome"]),
            attempt=attempt_from_node(created[0]["attempt"]),
            revision=revision,
        )

    return await write(db, "record_outcome", work, audit=Audit.of(request))


# --- maintain ------------------------------------------------------------------------------------
async def mark_stale_decisions(w: Write) -> list[str]:
    """maintain: active decisions past review_after become stale (one batch)."""
    rows = await w.run("decisions/mark_stale_decisions", limit=STALE_BATCH)
    return [row["id"] for row in rows]


async def evaluate_live_batch(w: Write, after: str, limit: int) -> tuple[Evaluation, str | None]:
    """maintain: the rules of the next ``limit`` live decisions after ``after`` (by id)
    evaluated and their signals synced; the last id read, None when none remain."""
    listed = await w.run("decisions/list_live_decisions", after=after, limit=limit)
    evaluation = await evaluate_listed(w, listed)
    return evaluation, listed[-1]["id"] if len(listed) == limit else None
