"""The TypedDicts the archive area's statements are read through (``shaped``) name exactly the
columns their statement returns, and the keys of the maps those columns hold: ``shaped``
declares, it does not check, so this test does.

Not checked: SessionNode, a node returned whole (``RETURN s AS session``), whose properties
are no column of the statement."""

from __future__ import annotations

import pytest

from graphmem.archive.rows import (
    ArchivedTurnRow,
    MergedSessionRow,
    RawHitRow,
    RawSearchRow,
    RawSessionSummaryRow,
    RawTurnRow,
    SessionRow,
    ThreadedRow,
)
from tests.row_shapes import column_test, opening_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "archive/get_raw_session": SessionRow,
    "archive/update_raw_session": SessionRow,
    "archive/merge_raw_session": MergedSessionRow,
    "archive/find_archived_turns": ArchivedTurnRow,
    "archive/link_raw_turn_sequence": ThreadedRow,
    "archive/get_raw_turns": RawTurnRow,  # get_observations and search read it
    "archive/search_raw_turns": RawSearchRow,
    "archive/list_raw_sessions": RawSessionSummaryRow,
}

# A map built in a subquery that a column returns: where it opens (the statement's text up to
# its brace, which occurrence), and its keys' shape.
OPENINGS: dict[tuple[str, str, int], type] = {
    ("archive/search_raw_turns", "RETURN collect({", 0): RawHitRow  # page
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_of_the_map_returned = opening_test(OPENINGS)
