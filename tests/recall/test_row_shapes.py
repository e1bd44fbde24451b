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
from tests.row_shapes import column_test, map_test, opening_test

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


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_its_column_holds = map_test(MAPS)


test_a_map_shape_names_the_keys_of_the_map_returned = opening_test(OPENINGS)
