"""The TypedDicts the recall area reads rows through (``shaped``) name exactly the columns their
statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it does
not check, so this test does. (No recall statement returns a node whole.)"""

from __future__ import annotations

import pytest

from graphmem.recall.rows import (
    BundleFactRow,
    BundleMemoryAfterRow,
    BundleMemoryRow,
    BundleSessionRow,
    MemoryActivityRow,
    MemoryGroupRow,
    MemoryTimelineRow,
    RecallMemoryRow,
    RecentMemoryRow,
    SafeClaimRow,
    TimelineAnchorMemory,
    TimelineAnchorTurn,
    TimelineMemoryMap,
    TimelineTurnMap,
    TurnActivityRow,
    TurnTimelineRow,
)
from graphmem.store.catalog import default_catalog
from tests.row_shapes import fields, keys_of_map, map_keys, returned

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "recall/list_recall_safe_claims": SafeClaimRow,
    "recall/get_recall_memories": RecallMemoryRow,
    "recall/list_bundle_memories": BundleMemoryRow,
    "recall/list_bundle_memories_after": BundleMemoryAfterRow,
    "recall/list_bundle_current_facts": BundleFactRow,
    "recall/list_bundle_facts_at": BundleFactRow,
    "recall/list_bundle_sessions": BundleSessionRow,
    "recall/get_memory_timeline": MemoryTimelineRow,
    "recall/get_turn_timeline": TurnTimelineRow,
    "recall/get_report_memory_activity": MemoryActivityRow,
    "recall/get_report_turn_activity": TurnActivityRow,
}

# A column that holds a map written in the column itself: its keys' shape.
MAPS: dict[tuple[str, str], type] = {
    ("recall/get_memory_timeline", "anchor"): TimelineAnchorMemory,
    ("recall/get_turn_timeline", "anchor"): TimelineAnchorTurn,
}

# A map built in a subquery that a column returns: where it opens (the statement's text up to
# its brace, which occurrence), and its keys' shape.
OPENINGS: dict[tuple[str, str, int], type] = {
    ("recall/get_memory_timeline", "collect(m {", 0): TimelineMemoryMap,  # before
    ("recall/get_memory_timeline", "collect(m {", 1): TimelineMemoryMap,  # after
    ("recall/get_turn_timeline", "collect(t {", 0): TimelineTurnMap,  # before
    ("recall/get_turn_timeline", "collect(t {", 1): TimelineTurnMap,  # after
    ("recall/get_report_memory_activity", "collect({", 0): MemoryGroupRow,  # groups
    ("recall/get_report_memory_activity", "collect({", 1): RecentMemoryRow,  # recent
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_shape_names_its_statements_columns(name: str) -> None:
    assert sorted(returned(name)) == fields(SHAPES[name])


@pytest.mark.parametrize(("name", "column"), sorted(MAPS))
def test_a_map_shape_names_the_keys_its_column_holds(name: str, column: str) -> None:
    assert sorted(keys_of_map(returned(name)[column])) == fields(MAPS[(name, column)])


@pytest.mark.parametrize(("name", "opening", "occurrence"), sorted(OPENINGS))
def test_a_map_shape_names_the_keys_of_the_map_returned(
    name: str, opening: str, occurrence: int
) -> None:
    text = default_catalog()[name].text
    assert map_keys(text, opening, occurrence) == fields(OPENINGS[(name, opening, occurrence)])
