"""The chunk state machine: every one of the 49 (from, to) pairs over the seven states is
checked against the documented table (23 legal moves), written out here independently of
graphmem/knowledge/lifecycle.py, and against the path the assessment takes (``route``)."""

from __future__ import annotations

import itertools
from typing import get_args

import pytest

from graphmem.knowledge.heuristics import route
from graphmem.knowledge.lifecycle import TRANSITIONS, can_move
from graphmem.knowledge.models.chunks import ChunkState

pytestmark = pytest.mark.pure

STATES: tuple[ChunkState, ...] = get_args(ChunkState)

LEGAL: set[tuple[str, str]] = {
    ("no_enrich", "enrichable"),
    ("no_enrich", "frozen"),
    ("no_enrich", "stale"),
    ("no_enrich", "archived"),
    ("enrichable", "uncertain"),
    ("enrichable", "awaiting_human"),
    ("enrichable", "frozen"),
    ("enrichable", "stale"),
    ("enrichable", "archived"),
    ("enrichable", "no_enrich"),
    ("uncertain", "awaiting_human"),
    ("uncertain", "enrichable"),
    ("uncertain", "frozen"),
    ("uncertain", "stale"),
    ("uncertain", "no_enrich"),
    ("awaiting_human", "enrichable"),
    ("awaiting_human", "frozen"),
    ("awaiting_human", "stale"),
    ("awaiting_human", "no_enrich"),
    ("frozen", "enrichable"),
    ("frozen", "archived"),
    ("stale", "enrichable"),
    ("stale", "archived"),
}
PAIRS = list(itertools.product(STATES, STATES))


def test_the_table_covers_exactly_the_seven_states() -> None:
    assert set(STATES) == {
        "no_enrich",
        "enrichable",
        "uncertain",
        "awaiting_human",
        "frozen",
        "stale",
        "archived",
    }
    assert set(TRANSITIONS) == set(STATES)
    assert all(targets <= set(STATES) for targets in TRANSITIONS.values())
    assert len(LEGAL) == 23 and len(PAIRS) == 49


@pytest.mark.parametrize(("current", "target"), sorted(LEGAL))
def test_legal_moves_are_allowed(current: ChunkState, target: ChunkState) -> None:
    assert can_move(current, target)
    assert route(current, target) == (target,)  # one step, straight there


@pytest.mark.parametrize(("current", "target"), [pair for pair in PAIRS if pair not in LEGAL])
def test_illegal_moves_are_refused_naming_the_state(
    current: ChunkState, target: ChunkState
) -> None:
    assert not can_move(current, target)
    path = route(current, target)
    if current == target:
        assert path == ()  # staying is no move
    elif target == "uncertain" and (current, "enrichable") in LEGAL:
        assert path == ("enrichable", "uncertain")  # two legal steps, never one illegal
    else:
        assert path is None  # the assessment moves nothing


def test_no_self_transition_and_archived_is_final() -> None:
    assert not any(can_move(state, state) for state in STATES)
    assert TRANSITIONS["archived"] == frozenset()
    assert not any(can_move("archived", state) for state in STATES)


def test_the_tools_own_moves_are_in_the_table() -> None:
    # queue_clarification: toward awaiting_human from enrichable and uncertain only (a
    # no_enrich, stale or archived chunk keeps its state; awaiting_human stays as it is)
    assert {s for s in STATES if can_move(s, "awaiting_human")} == {"enrichable", "uncertain"}
    # record_human_answer: awaiting_human and uncertain back to enrichable; a quarantined
    # chunk goes to no_enrich instead, legal from both
    for state in ("awaiting_human", "uncertain"):
        assert can_move(state, "enrichable") and can_move(state, "no_enrich")
    # every state but archived can be re-opened to enrichable, except enrichable itself
    assert {s for s in STATES if can_move(s, "enrichable")} == {
        "no_enrich",
        "uncertain",
        "awaiting_human",
        "frozen",
        "stale",
    }
