"""The knowledge pipeline's assessment rules (pure): markers, uncertainty, materiality, the state
decision and a new chunk's state (graphmem/knowledge/heuristics.py)."""

from __future__ import annotations

import pytest

from graphmem.knowledge import heuristics as rules
from graphmem.knowledge.heuristics import decide_state, materiality, uncertainty
from graphmem.knowledge.lifecycle import TRANSITIONS, can_move
from graphmem.knowledge.models.chunks import ChunkState

pytestmark = pytest.mark.pure


LONG = (
    "The ledger service was reviewed by the platform team during the quarterly planning "
    "session and the outcome was written down for everyone."
)  # 22 words, no ambiguity or completeness word: uncertainty 0


# --- markers -------------------------------------------------------------------------------------
def test_markers_rank_highest_first_and_match_whole_words() -> None:
    assert rules.markers("enrich_ok then FREEZE_CONTEXT and wait_human") == [
        "FREEZE_CONTEXT",
        "WAIT_HUMAN",
        "ENRICH_OK",
    ]
    assert rules.markers("XENRICH_OK NO_ENRICHED ENRICH_OK2") == []


# --- uncertainty ---------------------------------------------------------------------------------
def test_uncertainty_follows_its_formula() -> None:
    assert uncertainty(LONG) == 0.0
    # 22 words, one ambiguity marker: 10 * 1/22 = 0.4545
    assert uncertainty(LONG + " maybe") == pytest.approx(10 / 23, abs=1e-4)
    # brevity: 4 words, nothing else: 0.3 * 16/20
    assert uncertainty("the cache is warm") == pytest.approx(0.24)
    # completeness cancels ambiguity, never below 0
    assert uncertainty(LONG + " confirmed verified approved") == 0.0
    assert uncertainty("maybe TBD, not sure") == 1.0
    assert uncertainty("") == pytest.approx(0.3 * 19 / 20 + 0.0)


def test_uncertainty_matches_whole_words_and_phrases_only() -> None:
    # substrings of markers are no hits: "maybeline", "tbds"? (inflections are not listed)
    assert uncertainty(LONG + " maybeline todoist") == 0.0
    assert uncertainty(LONG + " not\n  sure") > 0.4  # a phrase across whitespace
    # "depends on" is a predicate, not doubt
    assert uncertainty(LONG + " it depends on redis") == 0.0
    assert uncertainty(LONG + " unlikely") == uncertainty(LONG + " likely") > 0


def test_uncertainty_stays_in_range() -> None:
    for text in ("", "x", "maybe " * 50, "done " * 50, LONG * 20):
        assert 0.0 <= uncertainty(text) <= 1.0


# --- materiality ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nothing special here", 0.1),
        ("a critical outage", 0.9),
        ("a bug and a fix", 0.5),
        ("bugs were fixed", 0.5),
        ("the exported balances", 0.8),
        ("config drift", 0.4),
        # the peer's substring false hits are not hits
        ("the prefix changed", 0.1),
        ("turn on debug logging", 0.1),
        ("an errorless run", 0.1),
        ("bridgework and exporter", 0.1),
        ("enrich_fix", 0.1),
    ],
)
def test_materiality_is_the_largest_whole_word_weight(text: str, expected: float) -> None:
    assert materiality(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bugs in the GAAP mapping; prefix", 0.9),  # gaap, inflected bug; prefix is no fix
        ("Bugs in the mapping; prefix", 0.8),
        ("Bugs; prefix", 0.5),
        ("prefix", 0.1),
    ],
)
def test_materiality_names_each_keyword_it_weighs(text: str, expected: float) -> None:
    """Each keyword found (gaap, mapping, bug: an inflected hit names its keyword) weighs in;
    the prefix holds no fix."""
    assert materiality(text) == expected


# --- state decision ------------------------------------------------------------------------------
STATES: list[ChunkState] = list(TRANSITIONS)
MARKER_CASES = [["FREEZE_CONTEXT"], ["NO_ENRICH"], ["WAIT_HUMAN"], ["ENRICH_OK"], []]

# Expected final state per (current state, marker) with low uncertainty, policy manual.
EXPECTED: dict[ChunkState, list[ChunkState]] = {
    #                 FREEZE        NO_ENRICH     WAIT_HUMAN        ENRICH_OK     none
    "no_enrich": ["frozen", "no_enrich", "no_enrich", "enrichable", "no_enrich"],
    "enrichable": ["frozen", "no_enrich", "awaiting_human", "enrichable", "enrichable"],
    "uncertain": ["frozen", "no_enrich", "awaiting_human", "enrichable", "uncertain"],
    "awaiting_human": ["frozen", "no_enrich", "awaiting_human", "enrichable", "awaiting_human"],
    "frozen": ["frozen", "frozen", "frozen", "enrichable", "frozen"],
    "stale": ["stale", "stale", "stale", "enrichable", "stale"],
    "archived": ["archived"] * 5,
}


@pytest.mark.parametrize("current", STATES)
@pytest.mark.parametrize("index", range(len(MARKER_CASES)))
def test_only_the_highest_marker_acts_through_legal_moves(current: ChunkState, index: int) -> None:
    found = MARKER_CASES[index]
    decision = decide_state(current, found, 0.0, "manual", False)
    assert decision.final == EXPECTED[current][index]
    assert decision.changed == (decision.final != current)
    for before, after in zip((current, *decision.path), decision.path, strict=False):
        assert can_move(before, after)
    illegal = [note for note in decision.notes if note.startswith("illegal_transition")]
    target = rules.MARKER_TARGET[found[0]] if found else current
    assert bool(illegal) == (target != current and not can_move(current, target))


def test_a_lower_marker_never_acts_when_the_highest_is_illegal() -> None:
    decision = decide_state("no_enrich", ["WAIT_HUMAN", "ENRICH_OK"], 0.0, "manual", False)
    assert (decision.final, decision.annotations) == ("no_enrich", ())
    assert decision.notes == ("illegal_transition:no_enrich->awaiting_human",)


def test_without_a_marker_only_policy_auto_unlocks_no_enrich() -> None:
    manual = decide_state("no_enrich", [], 0.0, "manual", False)
    auto = decide_state("no_enrich", [], 0.0, "auto", False)
    assert (manual.final, manual.notes) == ("no_enrich", ("no_marker_manual_policy",))
    assert (auto.final, auto.path) == ("enrichable", ("enrichable",))
    assert decide_state("stale", [], 0.0, "auto", False).final == "stale"


def test_an_uncertain_enrichable_target_becomes_uncertain_through_enrichable() -> None:
    decision = decide_state("no_enrich", ["ENRICH_OK"], 0.61, "manual", False)
    assert decision.path == ("enrichable", "uncertain")
    assert decision.annotations == (("signal", "ENRICH_OK"),)
    assert decide_state("no_enrich", ["ENRICH_OK"], 0.6, "manual", False).final == "enrichable"
    assert decide_state("enrichable", [], 0.9, "manual", False).final == "uncertain"
    assert decide_state("uncertain", ["ENRICH_OK"], 0.9, "manual", False).changed is False


def test_quarantined_chunks_never_become_enrichable_or_uncertain() -> None:
    for current in ("no_enrich", "enrichable", "uncertain"):
        for marker in (["ENRICH_OK"], []):
            for score in (0.0, 0.9):
                decision = decide_state(current, marker, score, "auto", True)
                assert decision.final == "no_enrich", (current, marker, score)
                assert "quarantined" in decision.notes
    assert decide_state("enrichable", ["FREEZE_CONTEXT"], 0.0, "auto", True).final == "frozen"


def test_annotations_only_when_the_marker_moved_the_chunk() -> None:
    assert decide_state("enrichable", ["FREEZE_CONTEXT"], 0, "manual", False).annotations == (
        ("freeze", "FREEZE_CONTEXT"),
    )
    assert decide_state("enrichable", ["WAIT_HUMAN"], 0, "manual", False).annotations == (
        ("signal", "WAIT_HUMAN"),
    )
    assert decide_state("enrichable", ["NO_ENRICH"], 0, "manual", False).annotations == ()
    assert decide_state("enrichable", ["ENRICH_OK"], 0, "manual", False).annotations == ()
    assert decide_state("frozen", ["FREEZE_CONTEXT"], 0, "manual", False).annotations == ()


@pytest.mark.parametrize(
    ("text", "quarantined", "state"),
    [
        ("ENRICH_OK notes", False, "enrichable"),
        ("NO_ENRICH ENRICH_OK notes", False, "no_enrich"),  # the highest marker acts
        ("WAIT_HUMAN ENRICH_OK notes", False, "enrichable"),  # WAIT_HUMAN acts on assess
        ("FREEZE_CONTEXT ENRICH_OK notes", False, "frozen"),
        ("ENRICH_OK notes", True, "no_enrich"),  # quarantined text never starts enrichable
        ("plain notes", False, "no_enrich"),
    ],
)
def test_a_new_chunk_starts_in_the_state_of_its_highest_marker(
    text: str, quarantined: bool, state: str
) -> None:
    assert rules.initial_state(text, quarantined) == state
