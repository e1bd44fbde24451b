"""Decisions domain: record decisions whose rejected alternatives carry reopen rules, read them
with their rules' verdicts, acknowledge review signals and move a decision through its
lifecycle. The evaluation of the rules and the review signals are evaluation.py's; attempts
and outcomes are attempts.py's.
"""

from __future__ import annotations

import asyncio
import re

from graphmem.core.clock import iso, utc_now_iso
from graphmem.core.errors import InvalidState, NotFound, first_row, require_state
from graphmem.core.ids import new_id
from graphmem.core.models import owner_of, pick
from graphmem.decisions.attempts import require_open
from graphmem.decisions.evaluation import TERMINAL, Evaluation, evaluate, signal_change
from graphmem.decisions.models import (
    LIVE_STATUSES,
    AckReviewRequest,
    AckReviewResult,
    Decision,
    RecordDecisionRequest,
    RecordDecisionResult,
    ReviewSignal,
    UpdateDecisionRequest,
    UpdateDecisionResult,
)
from graphmem.decisions.rows import (
    AcknowledgedRow,
    DecisionNode,
    DecisionRow,
    EvaluationRow,
    IdRow,
    decision_from_row,
    rule_verdict,
)
from graphmem.decisions.watched import watched_spellings
from graphmem.history.chain import Audit
from graphmem.history.write_path import Idempotency, IdempotencyRecord, Write, write
from graphmem.store import Params, TenantStore, shaped
from graphmem.subjects.spellings import key_fields

_ID_SHAPE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


# --- reading decisions ---------------------------------------------------------------------------
async def load_decisions(w: Write, ids: list[str]) -> tuple[dict[str, Decision], Evaluation]:
    """Decisions with the current verdict of every rule (evaluated, signals synced)."""
    rows = shaped(DecisionRow, await w.run("decisions/get_decisions", ids=ids))
    evaluation = await evaluate(w, [row["decision"]["id"] for row in rows], details=True)
    verdicts = {row["rule_id"]: rule_verdict(row) for row in evaluation.rows()}
    return {row["decision"]["id"]: decision_from_row(row, verdicts) for row in rows}, evaluation


async def read_decision(db: TenantStore, decision_id: str) -> Decision:
    """A decision with its rules' verdicts now, as a pure read: signals are not synced (that
    is review_decisions' job)."""
    spellings = await watched_spellings(db.read, [decision_id])
    rows, evaluated = await asyncio.gather(  # two independent reads, one round trip's wait
        db.read("decisions/get_decisions", ids=[decision_id]),
        db.read(
            "decisions/evaluate_reopen_rules",
            decision_ids=[decision_id],
            details=True,
            now=utc_now_iso(),
            spellings=spellings,
        ),
    )
    row = first_row(shaped(DecisionRow, rows), "decision", decision_id)
    verdicts = {
        rule["rule_id"]: rule_verdict(rule)
        for found in shaped(EvaluationRow, evaluated)[0]["decisions"]
        for rule in found["rules"]
    }
    return decision_from_row(row, verdicts)


async def _require_decision(w: Write, decision_id: str) -> DecisionNode:
    rows = shaped(DecisionRow, await w.run("decisions/get_decisions", ids=[decision_id]))
    return first_row(rows, "decision", decision_id)["decision"]


# --- record_decision -----------------------------------------------------------------------------
async def record_decision(db: TenantStore, request: RecordDecisionRequest) -> RecordDecisionResult:
    decision_id = new_id()

    async def work(w: Write) -> RecordDecisionResult:
        if request.supersedes_decision_id is not None:
            older = await _require_decision(w, request.supersedes_decision_id)
            why = "only a live decision can be superseded"
            require_state("decision", older["id"], older["status"], LIVE_STATUSES, why)
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

    keyed = Idempotency[RecordDecisionResult].of(
        owner_of(request.project, None),
        request,
        lambda result: IdempotencyRecord(result.decision.id, result.revision),
        _replayed_decision,
    )
    return await write(db, "record_decision", work, audit=Audit.of(request), idempotency=keyed)


async def _create(w: Write, decision_id: str, request: RecordDecisionRequest) -> None:
    owner = owner_of(request.project, None)
    await w.run(
        "decisions/create_decision",
        id=decision_id,
        **pick(request, "project title choice rationale"),
        review_after=iso(request.review_after),
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
        )
    if request.depends_on:
        fact_ids, keys = await _dependencies(w, request.depends_on)
        await w.run(
            "decisions/link_dependencies",
            decision_id=decision_id,
            fact_ids=fact_ids,
            keys=[{"key": key, "key_id": new_id(), **key_fields(key)} for key in keys],
            owner=owner,
            project=request.project,
        )
    if request.supersedes_decision_id is not None:
        await w.run(
            "decisions/link_superseded_decision",
            newer_id=decision_id,
            older_id=request.supersedes_decision_id,
            reason=f"superseded by decision {decision_id}",
        )
        await evaluate(w, [request.supersedes_decision_id])  # clears its signals


def _alternatives_and_rules(request: RecordDecisionRequest) -> tuple[list[Params], list[Params]]:
    """The parameters of decisions/create_alternatives and link_reopen_rules."""
    alternatives: list[Params] = []
    rules: dict[str, Params] = {}  # by rule id: a repeated rule is one rule
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
                    **key_fields(rule.key),
                },
            )
    return alternatives, list(rules.values())


async def _dependencies(w: Write, refs: list[str]) -> tuple[list[str], list[str]]:
    """Split depends_on into fact ids of the tenant and keys. A reference shaped like a
    graphmem id must name a fact: a mistyped id is refused rather than read as a key."""
    rows = shaped(IdRow, await w.run("decisions/list_existing_facts", refs=refs))
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
        why, signal_id = "only an open signal can be acknowledged", request.signal_id
        await require_open(w, "decisions/get_review_signal", "review signal", signal_id, why)
        updated = await w.run(
            "decisions/acknowledge_review_signal", id=request.signal_id, note=request.note
        )
        acknowledged = shaped(AcknowledgedRow, updated)[0]
        signal = ReviewSignal(**acknowledged["signal"])
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
            raise InvalidState("decision", request.decision_id, previous, "that status is final")
        if previous == request.status:
            raise InvalidState("decision", request.decision_id, previous, f"already {previous}")
        if request.successor_decision_id is not None:
            successor = await _require_decision(w, request.successor_decision_id)
            why = "a successor must be live"
            require_state(
                "successor decision", successor["id"], successor["status"], LIVE_STATUSES, why
            )
        await w.run(
            "decisions/update_decision_status",
            id=request.decision_id,
            successor_id=request.successor_decision_id,
            status=request.status,
            reason=request.reason,
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
