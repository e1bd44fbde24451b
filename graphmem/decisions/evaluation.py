"""Reopen-rule evaluation: evaluate decisions' rules against the facts they watch, and keep
review signals in step with the breaches.

Evaluation is one Cypher traversal per call (decisions/evaluate_reopen_rules); this module
groups its rows per decision. A decision's breach set is the sorted set of its rules whose
verdict is true (rules of one alternative are OR-ed, and any alternative's breach makes the
decision due). A review signal is identified by (decision, breach set): acknowledging it
keeps it quiet until the set changes; a set that clears entirely ends the episode.

Signals are pushed: record_fact and govern_fact call ``push_signals`` in their own
transaction for the decisions that watch the keys they changed; maintain evaluates every live
decision in batches (``evaluate_live_batch``). Unknown verdicts are kept the same way: every
evaluation in a write stores, per rule, why it cannot fire now (no current fact, an expired
one, incomparable types, conflicting evidence), so review_decisions lists dead rules over a
scope without evaluating them. A decision written before this state existed gets it from its
first evaluation in a write (at the latest maintain's pass over every live decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from graphmem.core.clock import parse_iso
from graphmem.core.ids import new_id
from graphmem.core.models import from_node
from graphmem.decisions.models import (
    MAX_DIAGNOSTICS,
    DecisionStatus,
    Diagnostic,
    ReviewOutcome,
    ReviewSignal,
    VerdictCounts,
)
from graphmem.decisions.rows import (
    EvaluatedDecision,
    EvaluatedRule,
    EvaluationRow,
    IdRow,
    ListedDecision,
    SyncedRow,
    verdict_of,
)
from graphmem.decisions.watched import changed_spellings, watched_spellings
from graphmem.history.write_path import Write
from graphmem.store import Params, shaped

STALE_BATCH = 1000
TERMINAL = ("superseded", "reverted")


@dataclass
class _DecisionVerdicts:
    decision_id: str
    project: str
    title: str
    status: DecisionStatus
    review_after: str | None  # ISO 8601, as the evaluation query returns it
    rows: list[EvaluatedRule] = field(default_factory=list[EvaluatedRule])
    has_signal: bool = False  # an open or acknowledged signal exists
    stored_unknown: int | None = None  # unknown rules kept by the last write; None: never kept

    def review_after_passed(self, now: datetime) -> bool:
        return self.review_after is not None and parse_iso(self.review_after) <= now

    def breached(self) -> list[EvaluatedRule]:
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

    def rows(self) -> list[EvaluatedRule]:
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
            "decisions/evaluate_reopen_rules",
            decision_ids=decision_ids,
            details=details,
            spellings=await watched_spellings(w.run, decision_ids),
        )
        decisions = verdicts_of(shaped(EvaluationRow, rows)[0]["decisions"])
    coverages = {decision_id: _coverage(v) for decision_id, v in decisions.items()}
    entries: list[Params] = [
        {
            "decision_id": decision_id,
            "coverage": " ".join(coverage),
            "breached_rule_ids": coverage,
            "signal_id": new_id(),
        }
        for decision_id, coverage in coverages.items()
        if coverage or decisions[decision_id].has_signal  # nothing to sync for quiet ones
    ]
    await _keep_rule_states(w, decisions)
    return await _sync_signals(w, entries, decisions)


def _state_change(verdicts: _DecisionVerdicts) -> Params | None:
    """The decision's unknown rules to keep, when they differ from what is kept: each rule's
    reason (none once the decision is no longer live: its rules cannot reopen anything)."""
    live = verdicts.status not in TERMINAL
    unknown = [row for row in verdicts.rows if row["reason"] is not None] if live else []
    changed = verdicts.stored_unknown is None or any(
        row.get("stored_reason") != (row["reason"] if live else None) for row in verdicts.rows
    )
    if not changed or (not live and not verdicts.stored_unknown):
        return None
    rules = [{"rule_id": row["rule_id"], "reason": row["reason"]} for row in unknown]
    return {"decision_id": verdicts.decision_id, "rules": rules}


async def _keep_rule_states(w: Write, decisions: dict[str, _DecisionVerdicts]) -> None:
    """Unknown verdicts as state, like breaches: written only where they changed."""
    entries = [change for v in decisions.values() if (change := _state_change(v)) is not None]
    if entries:
        await w.run("decisions/set_rule_states", entries=entries)


def verdicts_of(found: list[EvaluatedDecision]) -> dict[str, _DecisionVerdicts]:
    """Per decision, the rows of decisions/evaluate_reopen_rules."""
    return {
        row["decision_id"]: _DecisionVerdicts(
            row["decision_id"],
            row["project"],
            row["title"],
            row["status"],
            row["review_after"],
            row["rules"],
            row["has_signal"],
            row["stored_unknown"],
        )
        for row in found
    }


def listed_verdicts(listed: list[ListedDecision]) -> dict[str, _DecisionVerdicts]:
    """Per listed decision, its own fields (no rules, no signal known): a decision without
    rules is not in the evaluation's rows."""
    return {
        row["id"]: _DecisionVerdicts(
            row["id"], row["project"], row["title"], row["status"], row["review_after"]
        )
        for row in listed
    }


def _coverage(verdicts: _DecisionVerdicts) -> list[str]:
    """The breach set that identifies a signal; none for a decision that is no longer live."""
    if verdicts.status in TERMINAL:
        return []
    return verdicts.coverage()


async def _sync_signals(
    w: Write, entries: list[Params], decisions: dict[str, _DecisionVerdicts]
) -> Evaluation:
    signals: dict[str, ReviewSignal] = {}
    opened: list[ReviewSignal] = []
    cleared = 0
    if entries:
        rows = shaped(SyncedRow, await w.run("decisions/sync_review_signals", entries=entries))
        for row in rows:
            cleared += row["cleared"]
            found = row["signal"]
            if found is None:
                continue
            signal = ReviewSignal(**found)
            signals[row["decision_id"]] = signal
            if row["opening"]:
                opened.append(signal)
    return Evaluation(decisions, signals, opened, cleared)


async def evaluate_listed(w: Write, listed: list[ListedDecision]) -> Evaluation:
    """Evaluate listed decisions (from decisions/list_live_decisions); those without
    rules are counted too (they can still be due by review_after)."""
    evaluation = await evaluate(w, [row["id"] for row in listed])
    for decision_id, verdicts in listed_verdicts(listed).items():
        evaluation.decisions.setdefault(decision_id, verdicts)
    return evaluation


async def push_signals(w: Write, fact_ids: list[str]) -> Evaluation:
    """Re-evaluate the decisions watching the keys of these facts (called by fact writes)."""
    spellings = await changed_spellings(w.run, fact_ids)
    rows = shaped(
        IdRow,
        await w.run(
            "decisions/list_decisions_watching_facts", fact_ids=fact_ids, spellings=spellings
        ),
    )
    return await evaluate(w, [row["id"] for row in rows])


def signal_change(evaluation: Evaluation) -> dict[str, object]:
    """What an evaluation changed, for the history event of the write that ran it."""
    return {
        "signals_opened": [signal.signal_id for signal in evaluation.opened],
        "signals_cleared": evaluation.cleared,
    }


# --- maintain ------------------------------------------------------------------------------------
async def mark_stale_decisions(w: Write) -> list[str]:
    """maintain: active decisions past review_after become stale (one batch)."""
    rows = shaped(IdRow, await w.run("decisions/mark_stale_decisions", limit=STALE_BATCH))
    return [row["id"] for row in rows]


async def evaluate_live_batch(w: Write, after: str, limit: int) -> tuple[Evaluation, str | None]:
    """maintain: the rules of the next ``limit`` live decisions after ``after`` (by id)
    evaluated and their signals synced; the last id read, None when none remain."""
    rows = await w.run("decisions/list_live_decisions", after=after, limit=limit)
    listed = shaped(ListedDecision, rows)
    evaluation = await evaluate_listed(w, listed)
    return evaluation, listed[-1]["id"] if len(listed) == limit else None
