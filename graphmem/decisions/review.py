"""review_decisions, from state: a read that costs what is due, not what is stored.

Fact writes push review signals for the decisions watching the keys they change, and
maintain re-evaluates every live decision in batches, so what can be due is already known:
a live decision with an open or acknowledged signal, or past review_after (an index seek).
Only those candidates are evaluated now, to list their breached rules and to drop a signal
whose breach a lapse has since ended (maintain clears it). A breach that time alone creates
(a contradicting fact lapsing) is found by the next maintain. Nothing is written, so a
read-only principal may call it.

Diagnostics (rules that cannot fire: no current fact, an expired one, incomparable types,
conflicting evidence) over a scope come from state too: every evaluation in a write keeps
its rules' unknown reasons, so a misspelt or never-recorded key is listed from the moment
its decision is recorded. A reason that only time creates (a fact passing its valid_to or
expires_at) is kept by the next maintain, as breaches are. A named decision is evaluated
whole and reports its diagnostics as of now.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TypedDict

from graphmem.core.clock import parse_iso, utc_now_iso
from graphmem.core.models import from_node
from graphmem.decisions.evaluation import TERMINAL, Evaluation, listed_verdicts, verdicts_of
from graphmem.decisions.models import (
    MAX_DIAGNOSTICS,
    MAX_DUE,
    Diagnostic,
    DueDecision,
    ReviewDecisionsRequest,
    ReviewDecisionsResult,
    ReviewSignal,
    UnknownByReason,
)
from graphmem.decisions.rows import (
    CurrentSignalRow,
    DecisionRow,
    EvaluationRow,
    ListedDecision,
    UnknownRulesRow,
    rule_verdict,
)
from graphmem.decisions.watched import watched_spellings
from graphmem.store import TenantStore, shaped

EVALUATION_CHUNK = 500  # decisions per evaluation statement, run concurrently


class DiagnosticsPage(TypedDict):
    """The diagnostics fields of review_decisions' result: one page and the totals."""

    diagnostics: list[Diagnostic]
    diagnostics_total: int
    diagnostics_next_offset: int | None
    unknown_by_reason: UnknownByReason


async def review_decisions(
    db: TenantStore, request: ReviewDecisionsRequest
) -> ReviewDecisionsResult:
    now_iso = utc_now_iso()
    now = parse_iso(now_iso)
    if request.decision_id is not None:  # a live decision named is evaluated whole
        evaluation = await _evaluate(db, await _named(db, request), now_iso)
        diagnostics = _evaluated_diagnostics(request, evaluation)
    else:  # the due candidates and the kept dead rules: two independent reads at once
        candidates, diagnostics = await asyncio.gather(
            db.read(
                "decisions/list_due_candidates", project=request.project, limit=MAX_DUE, now=now_iso
            ),
            _kept_diagnostics(db, request),
        )
        evaluation = await _evaluate(db, shaped(ListedDecision, candidates), now_iso)
    due = _due_ids(evaluation, now)
    page = due[request.offset : request.offset + request.limit]
    following = request.offset + request.limit
    signals = await _current_signals(db, evaluation, page)
    verdicts = evaluation.outcome().model_dump(
        exclude={"signals_opened", "signals_cleared", "diagnostics", "diagnostics_total"}
    )
    return ReviewDecisionsResult(
        **verdicts,
        **diagnostics,
        due=[_due_decision(evaluation, signals, decision_id, now) for decision_id in page],
        due_total=len(due),
        limit=request.limit,
        offset=request.offset,
        next_offset=following if following < len(due) else None,
        evaluated_at=now,
    )


async def _kept_diagnostics(db: TenantStore, request: ReviewDecisionsRequest) -> DiagnosticsPage:
    """The rules in scope that cannot fire, one page, from the state writes keep."""
    start = request.diagnostics_offset
    rows = await db.read(
        "decisions/list_unknown_rules", project=request.project, offset=start, limit=MAX_DIAGNOSTICS
    )
    row = shaped(UnknownRulesRow, rows)[0]
    counts = {entry["reason"]: entry["rules"] for entry in row["by_reason"]}
    return _diagnostics_page(start, row["page"], row["total"], counts)


def _evaluated_diagnostics(
    request: ReviewDecisionsRequest, evaluation: Evaluation
) -> DiagnosticsPage:
    """A named decision's rules that cannot fire, one page, as evaluated now."""
    start = request.diagnostics_offset
    unknown = [row for row in evaluation.rows() if row["reason"] is not None]
    counts = Counter(reason for row in unknown if (reason := row["reason"]) is not None)
    return _diagnostics_page(start, unknown[start : start + MAX_DIAGNOSTICS], len(unknown), counts)


def _diagnostics_page(
    start: int, listed: Sequence[Mapping[str, object]], total: int, counts: Mapping[str, int]
) -> DiagnosticsPage:
    following = start + MAX_DIAGNOSTICS
    return {
        "diagnostics": [from_node(Diagnostic, row) for row in listed],
        "diagnostics_total": total,
        "diagnostics_next_offset": following if following < total else None,
        "unknown_by_reason": UnknownByReason(**counts),
    }


async def _named(db: TenantStore, request: ReviewDecisionsRequest) -> list[ListedDecision]:
    """The named decision, when it is live and in scope: evaluated even when not due, so
    its unknown verdicts are reported."""
    rows = shaped(DecisionRow, await db.read("decisions/get_decisions", ids=[request.decision_id]))
    return [
        {
            "id": node["id"],
            "project": node["project"],
            "title": node["title"],
            "status": node["status"],
            "review_after": _iso_or_none(node.get("review_after")),
        }
        for node in (row["decision"] for row in rows)
        if node["status"] not in TERMINAL
        and (request.project is None or node["project"] == request.project)
    ]


def _iso_or_none(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


async def _evaluate(db: TenantStore, listed: list[ListedDecision], now_iso: str) -> Evaluation:
    """The candidates' rules evaluated now (signals are not synced)."""
    ids = [row["id"] for row in listed]
    chunks = [ids[i : i + EVALUATION_CHUNK] for i in range(0, len(ids), EVALUATION_CHUNK)]
    spellings = await asyncio.gather(*(watched_spellings(db.read, chunk) for chunk in chunks))
    evaluated = await asyncio.gather(
        *(
            db.read(
                "decisions/evaluate_reopen_rules",
                decision_ids=chunk,
                details=False,
                now=now_iso,
                spellings=chunk_spellings,
            )
            for chunk, chunk_spellings in zip(chunks, spellings, strict=True)
        )
    )
    decisions = listed_verdicts(listed)
    decisions |= verdicts_of(
        [found for rows in evaluated for found in shaped(EvaluationRow, rows)[0]["decisions"]]
    )
    return Evaluation(decisions, {}, opened=[], cleared=0)


async def _current_signals(
    db: TenantStore, evaluation: Evaluation, page: list[str]
) -> dict[str, ReviewSignal]:
    """Per decision of the page, its open or acknowledged signal of the breach set now."""
    if not page:
        return {}
    rows = await db.read("decisions/list_current_signals", decision_ids=page)
    signals: dict[str, ReviewSignal] = {}
    for row in shaped(CurrentSignalRow, rows):
        signal = row["signal"]
        coverage = " ".join(evaluation.decisions[signal["decision_id"]].coverage())
        if signal["coverage"] == coverage:  # from_node takes the model's fields, not coverage
            signals[signal["decision_id"]] = from_node(ReviewSignal, signal)
    return signals


def _due_ids(evaluation: Evaluation, now: datetime) -> list[str]:
    """Decisions with a breach now or past review_after, by id (models only for a page)."""
    return [
        decision_id
        for decision_id, verdicts in sorted(evaluation.decisions.items())
        if verdicts.breached() or verdicts.review_after_passed(now)
    ]


def _due_decision(
    evaluation: Evaluation, signals: dict[str, ReviewSignal], decision_id: str, now: datetime
) -> DueDecision:
    verdicts = evaluation.decisions[decision_id]
    return DueDecision(
        decision_id=decision_id,
        project=verdicts.project,
        title=verdicts.title,
        status=verdicts.status,
        review_after_passed=verdicts.review_after_passed(now),
        signal=signals.get(decision_id),
        breached_rules=[rule_verdict(row) for row in verdicts.breached()],
    )
