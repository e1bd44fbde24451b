"""current_state's resolution on the facts side: from the fact views of each owner of a key,
the answer, its history and why. Pure: the read is fact_state.py's.

Time rules (the reference model in tests/facts/test_facts_properties.py mirrors them):
- A fact's *boundary* is the earlier of valid_to and expires_at (validity.py); at the boundary
  instant it has lapsed. maintain turns lapsed active facts into 'expired'; reads do not wait.
- Without as_of, the answer is the key's current (active) fact unless it has lapsed at the
  reference time (known_at, else now).
- With as_of T, the answer is the fact whose valid window [valid_from, boundary) holds T, the
  newest valid_from winning (then the newest recorded_at, then the larger id), whatever its
  status: a superseded fact still says what was true in its window.
- known_at K reads the graph as it was at K: facts recorded by then, each with the status and
  window it had then (FactState), and the SUPERSEDES / CONTRADICTS links that existed then.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import JsonValue

from graphmem.facts.models import (
    CurrentState,
    CurrentStateRequest,
    Fact,
    FactStatus,
    HistoryEntry,
    WhyEdge,
)
from graphmem.facts.rows import (
    CurrentSlotRow,
    EdgeType,
    FactEdge,
    FactNode,
    FactStateNode,
    FormerFact,
    StatesSlotRow,
    fact_from_node,
)
from graphmem.facts.validity import boundary, lapsed


@dataclass(frozen=True)
class View:
    """One fact as known at the reference time: its lifecycle fields and links, plus the
    whole node when it may become the answer (history-only views carry a projection)."""

    id: str
    status: FactStatus
    value: JsonValue
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    recorded_at: datetime
    edges: list[FactEdge]
    node: FactNode | FormerFact
    state: FactStateNode | None = None

    @classmethod
    def of(
        cls, node: FactNode | FormerFact, edges: list[FactEdge], state: FactStateNode | None = None
    ) -> View:
        lifecycle = state or node
        return cls(
            id=node["id"],
            status=lifecycle["status"],
            value=json.loads(node["value_json"]),
            valid_from=node["valid_from"],
            valid_to=lifecycle.get("valid_to"),
            expires_at=lifecycle.get("expires_at"),
            recorded_at=node["recorded_at"],
            edges=edges,
            node=node,
            state=state,
        )

    @property
    def whole(self) -> bool:
        """A whole Fact node (not a history projection): it can be an answer."""
        return "key" in self.node

    def fact(self) -> Fact:
        assert "key" in self.node, "a former fact's projection is never an answer"
        return fact_from_node(self.node, self.state)

    def lapsed_at(self, at: datetime) -> bool:
        return lapsed(self.valid_to, self.expires_at, at)

    def live_at(self, at: datetime) -> bool:
        return self.status == "active" and not self.lapsed_at(at)

    def holds(self, instant: datetime) -> bool:
        until = boundary(self.valid_to, self.expires_at)
        return self.valid_from <= instant and (until is None or instant < until)


@dataclass(frozen=True)
class Slot:
    project: str | None
    origin_id: str | None
    owner: str
    key: str  # the key asked for, or another naming the same subject (subjects/spellings.py)
    views: list[View]  # newest recorded first


def slot_from_current(row: CurrentSlotRow) -> Slot:
    views = [View.of(old, old["edges"]) for old in row["history"]]
    if row["answer"] is not None:
        views.append(View.of(row["answer"], row["answer_edges"]))
    return _slot(row, views)


def slot_from_states(row: StatesSlotRow) -> Slot:
    views = [View.of(item["fact"], item["edges"], item["state"]) for item in row["facts"]]
    return _slot(row, views)


def _slot(row: CurrentSlotRow | StatesSlotRow, views: list[View]) -> Slot:
    views.sort(key=lambda v: (v.recorded_at, v.id), reverse=True)
    return Slot(row["project"], row["origin_id"], row["owner"], row["key"], views)


def _answer(slot: Slot, as_of: datetime | None, reference: datetime) -> View | None:
    if as_of is not None:
        holding = [view for view in slot.views if view.holds(as_of)]
        return max(holding, key=lambda v: (v.valid_from, v.recorded_at, v.id), default=None)
    # At most one fact of a key is active at any time: the one its CURRENT edge names (the
    # only whole node of a now-read; an active fact without it is drift that audit repairs).
    return next((v for v in slot.views if v.whole and v.live_at(reference)), None)


def resolve(request: CurrentStateRequest, slots: list[Slot], reference: datetime) -> CurrentState:
    base = CurrentState(
        state_key=request.state_key,
        status="not_found",
        project=request.project,
        origin_id=request.origin_id,
        answer=None,
        history=[],
        why=[],
        as_of=request.as_of,
        known_at=request.known_at,
    )
    if not slots:
        return base
    answered = [(slot, _answer(slot, request.as_of, reference)) for slot in slots]
    with_answer = [(slot, view) for slot, view in answered if view is not None]
    owners = sorted({slot.owner for slot, _ in with_answer})
    if len(owners) > 1:
        return base.model_copy(update={"status": "ambiguous", "candidates": owners})
    if with_answer:
        slot, answer = _asked_first(with_answer, request.state_key)
    else:
        asked = [slot for slot in slots if slot.key == request.state_key] or slots
        if len(asked) > 1:
            return base.model_copy(update={"status": "no_current"})
        slot, answer = asked[0], None
    state = _state_of_slot(base, slot, answer, request.history_limit, reference)
    return _with_aliases(state, slot, answer, slots, with_answer)


def _asked_first(answered: list[tuple[Slot, View]], key: str) -> tuple[Slot, View]:
    """The answer of the key asked for; else (only another spelling holds one) the newest."""
    return max(answered, key=lambda item: (item[0].key == key, item[1].recorded_at, item[1].id))


def _with_aliases(
    state: CurrentState,
    slot: Slot,
    answer: View | None,
    slots: list[Slot],
    answered: list[tuple[Slot, View]],
) -> CurrentState:
    """One subject under two keys is one truth: the other keys read are named, and a live
    answer of another with another value is a contradiction (unresolved until governed)."""
    aliases = sorted({o.key for o in slots if o.key != state.state_key and o.owner == slot.owner})
    if not aliases:
        return state
    differing = [
        (other, view)
        for other, view in answered
        if answer is not None and other is not slot and view.value != answer.value
    ]
    if answer is None or not differing:
        return state.model_copy(update={"aliases": aliases})
    why = [
        WhyEdge(
            type="contradicts",
            from_id=answer.id,
            to_id=view.id,
            rationale=f"{other.key} names the same subject and holds another value",
        )
        for other, view in differing
    ]
    return state.model_copy(
        update={"aliases": aliases, "status": "unresolved_conflict", "why": state.why + why}
    )


_WHY: dict[EdgeType, Literal["supersedes", "contradicts"]] = {
    "SUPERSEDES": "supersedes",
    "CONTRADICTS": "contradicts",
}


def _state_of_slot(
    base: CurrentState, slot: Slot, answer: View | None, limit: int, reference: datetime
) -> CurrentState:
    others = [view for view in slot.views if answer is None or view.id != answer.id]
    history = [_history_entry(view, reference) for view in others[:limit]]
    edges: dict[tuple[EdgeType, str, str], FactEdge] = {
        (edge["type"], edge["from_id"], edge["to_id"]): edge
        for view in ([answer] if answer else []) + others[:limit]
        for edge in view.edges
    }
    why = [
        WhyEdge(
            type=_WHY[kind],
            from_id=source,
            to_id=target,
            at=edge.get("at"),
            rationale=edge.get("rationale"),
        )
        for (kind, source, target), edge in sorted(edges.items())
    ]
    status = "no_current"
    if answer is not None:
        conflicted = any(
            edge["type"] == "CONTRADICTS" and edge.get("other_live", False) for edge in answer.edges
        )
        status = "unresolved_conflict" if conflicted else "current"
    return base.model_copy(
        update={
            "status": status,
            "project": slot.project,
            "origin_id": slot.origin_id,
            "answer": answer.fact() if answer else None,
            "history": history,
            "why": why,
        }
    )


def _history_entry(view: View, reference: datetime) -> HistoryEntry:
    superseded_by = next(
        (e["from_id"] for e in view.edges if e["type"] == "SUPERSEDES" and e["to_id"] == view.id),
        None,
    )
    lapsed_now = view.status == "active" and view.lapsed_at(reference)
    return HistoryEntry(
        id=view.id,
        status="expired" if lapsed_now else view.status,
        value=view.value,
        valid_from=view.valid_from,
        valid_to=view.valid_to,
        expires_at=view.expires_at,
        recorded_at=view.recorded_at,
        superseded_by=superseded_by,
    )
