"""The TypedDicts the erasure reads rows through (``shaped``) name exactly the columns their
statements return: ``shaped`` declares, it does not check."""

from __future__ import annotations

import pytest

from graphmem.erasure.batch import TombstonedRow
from graphmem.erasure.selection import SelectedRow, WrittenRow
from graphmem.erasure.service import DescribedRow, SharedSessionRow
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SELECTING = [
    "erasure/select_by_ids",
    "erasure/select_project",
    "erasure/select_raw_session",
    "erasure/select_topic",
    "erasure/select_archived_turns",
    "erasure/expand_dependents",
    "erasure/list_emptied_fact_keys",
    "erasure/list_past_retention",
]
SHAPES: dict[str, type] = {
    **dict.fromkeys(SELECTING, SelectedRow),
    "erasure/list_events_written_by": WrittenRow,
    "erasure/describe_nodes": DescribedRow,
    "erasure/list_shared_sessions": SharedSessionRow,
    "erasure/tombstone_nodes": TombstonedRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)
